import { runStandalone } from '@app/kit';
import { identityService } from './index';

void runStandalone(identityService);
