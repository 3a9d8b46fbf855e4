import '@omni/ui/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { ensureFederation } from './federation/federation';
import { spendEmailLinkInAddress } from './session/email-links';

// Start reading the remote list now, while React renders, so the first remote page does not wait
// for it. A failure is reported by the page that needs a remote; nothing to do here.
ensureFederation().catch(() => undefined);
// A sign-in or verification link starts being spent now, before the router reads the address.
spendEmailLinkInAddress();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
