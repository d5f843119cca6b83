import { runStandalone } from '@app/kit';
import { mediaService } from './index';

void runStandalone(mediaService);
