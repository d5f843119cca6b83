// Imported first by the media service's main (distributed mode), before http, express and pg load.
import { startTracing } from '../start';

startTracing('media');
