/**
 * Support e-mail link fallback (spec §2 footer): the link opens the visitor's mail client; when no
 * mail client comes up, the address is copied to the clipboard and shown in an alert instead.
 *
 * There is no event for "mailto: did nothing", so it is inferred: a mail client that opens takes
 * focus from the page (blur) or hides it (visibilitychange/pagehide). If the page is still visible
 * and focused a second after the click, nothing opened.
 */
export const MAIL_CLIENT_CHECK_DELAY_MS = 1000;

export type SupportContactOutcome = 'mail-client' | 'copied' | 'shown';

export interface SupportContactMessages {
  /** Alert text when the address was copied; must contain the address. */
  copied: (address: string) => string;
  /** Alert text when copying failed too; must contain the address. */
  manual: (address: string) => string;
}

export interface MailClientEnvironment {
  /** Calls `listener` once the page loses focus or is hidden; returns the unsubscribe function. */
  onPageLeft(listener: () => void): () => void;
  /** Whether the page is still visible and focused. */
  isPageActive(): boolean;
  schedule(callback: () => void, ms: number): void;
  copyText(text: string): Promise<boolean>;
  alert(message: string): void;
}

export function supportMailto(address: string): string {
  return `mailto:${address}`;
}

async function copyWithClipboardApi(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

function copyWithSelection(text: string): boolean {
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  document.body.appendChild(field);
  try {
    field.select();
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    field.remove();
  }
}

export function browserMailEnvironment(): MailClientEnvironment {
  return {
    onPageLeft(listener) {
      const onVisibility = () => {
        if (document.visibilityState === 'hidden') listener();
      };
      window.addEventListener('blur', listener);
      window.addEventListener('pagehide', listener);
      document.addEventListener('visibilitychange', onVisibility);
      return () => {
        window.removeEventListener('blur', listener);
        window.removeEventListener('pagehide', listener);
        document.removeEventListener('visibilitychange', onVisibility);
      };
    },
    isPageActive: () => document.visibilityState === 'visible' && document.hasFocus(),
    schedule: (callback, ms) => void window.setTimeout(callback, ms),
    copyText: async (text) => (await copyWithClipboardApi(text)) || copyWithSelection(text),
    alert: (message) => window.alert(message),
  };
}

/** Copies the address and tells the visitor about it (or just shows it when copying fails too). */
export async function showSupportAddress(
  address: string,
  messages: SupportContactMessages,
  env: MailClientEnvironment = browserMailEnvironment(),
): Promise<Exclude<SupportContactOutcome, 'mail-client'>> {
  const copied = await env.copyText(address);
  env.alert(copied ? messages.copied(address) : messages.manual(address));
  return copied ? 'copied' : 'shown';
}

/**
 * Call from the support link's click handler, letting the browser follow the mailto: link. Resolves
 * with what happened: the mail client opened, or the fallback copied/showed the address.
 */
export function watchMailClientLaunch(
  address: string,
  messages: SupportContactMessages,
  env: MailClientEnvironment = browserMailEnvironment(),
  delayMs: number = MAIL_CLIENT_CHECK_DELAY_MS,
): Promise<SupportContactOutcome> {
  return new Promise((resolve) => {
    let left = false;
    const unsubscribe = env.onPageLeft(() => {
      left = true;
    });
    env.schedule(() => {
      unsubscribe();
      if (left || !env.isPageActive()) {
        resolve('mail-client');
        return;
      }
      void showSupportAddress(address, messages, env).then(resolve, () => resolve('shown'));
    }, delayMs);
  });
}
