// Imported first by the chat service's main (distributed mode), before http, express and pg load.
import { startTracing } from '../start';

startTracing('chat');
