// Imported first by the gateway's main (distributed mode), before http, express and pg load.
import { startTracing } from '../start';

startTracing('gateway');
