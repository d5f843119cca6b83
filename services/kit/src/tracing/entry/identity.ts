// Imported first by the identity service's main (distributed mode), before http, express and pg load.
import { startTracing } from '../start';

startTracing('identity');
