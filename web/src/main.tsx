import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { startI18n } from './i18n/change-language';
import { createApolloClient } from './lib/apollo-client';

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');
const root = container;

// The visitor's language (saved choice, else the browser's) is loaded before the first render, so
// no English text or raw key flashes before the translation arrives. startI18n never rejects.
void startI18n().then(() => {
  createRoot(root).render(
    <StrictMode>
      <App apollo={createApolloClient()} />
    </StrictMode>,
  );
});
