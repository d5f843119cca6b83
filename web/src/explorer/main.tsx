// GraphiQL's editor (Monaco) runs its language services in workers, built by Vite as same-origin files.
import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import './explorer.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Explorer } from './explorer';

createRoot(document.getElementById('explorer')!).render(
  <StrictMode>
    <Explorer />
  </StrictMode>,
);
