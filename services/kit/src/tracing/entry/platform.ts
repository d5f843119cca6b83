// Imported first by the embedded product's main (every service in one process), before http, express and pg load.
import { startTracing } from '../start';

startTracing('platform');
