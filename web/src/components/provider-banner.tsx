import { Alert, Box, CloseButton, Code, Text } from '@chakra-ui/react';
import { useQuery } from '@apollo/client/react';
import { type ReactNode, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { graphql } from '../gql';

export const ProviderBannerDocument = graphql(`
  query ProviderBanner {
    chatProvider {
      model
      isDemo
      source
      server
    }
    imageProvider {
      model
      isDemo
      source
      server
    }
  }
`);

interface ProviderState {
  model: string;
  isDemo: boolean;
  source: string;
  server?: string | null;
}

/** What the banner says: the demo (with how to connect a model) or what was found on this computer; null says nothing. */
export interface ProviderBannerContent {
  chat: 'demo' | 'detected' | null;
  images: 'demo' | 'detected' | null;
  /** Changes whenever what the banner says changes, so a dismissed banner comes back with news. */
  signature: string;
}

const stateOf = (provider: ProviderState | undefined): 'demo' | 'detected' | null => {
  if (!provider) return null;
  if (provider.isDemo) return 'demo';
  return provider.source === 'detected' ? 'detected' : null;
};

/** Operator-configured providers need no word; the demo and servers found at start do. */
export function providerBannerContent(chat?: ProviderState, images?: ProviderState): ProviderBannerContent | null {
  const content = { chat: stateOf(chat), images: stateOf(images) };
  if (!content.chat && !content.images) return null;
  const part = (state: string | null, provider?: ProviderState) =>
    state === 'detected' ? `${provider?.server}/${provider?.model}` : state;
  return { ...content, signature: `chat:${part(content.chat, chat)};images:${part(content.images, images)}` };
}

/** The browser remembers the dismissed banner's signature here (browser suites may set it to start without the banner). */
export const PROVIDER_BANNER_DISMISSED_KEY = 'providerBanner.dismissed';

function readDismissed(): string | null {
  try {
    return window.localStorage.getItem(PROVIDER_BANNER_DISMISSED_KEY);
  } catch {
    return null;
  }
}

function rememberDismissed(signature: string): void {
  try {
    window.localStorage.setItem(PROVIDER_BANNER_DISMISSED_KEY, signature);
  } catch {
    // Private modes may refuse storage: the banner is then hidden until the next load only.
  }
}

const code = <Code fontSize="xs" wordBreak="break-all" />;

/**
 * On every member screen while chat or images is the offline demo (placeholders, not AI), with the one step that
 * connects a model; or a short note naming the model found on this computer at start. Dismissed per browser until
 * what it says changes.
 */
/** Chat and stories fill the screen's height and label their demo replies themselves: the banner would push their composer off a phone's screen. */
export function screenLabelsItsOwnDemo(pathname: string): boolean {
  return /^\/(chat|stories)(\/|$)/.test(pathname);
}

export function ProviderBanner() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // Not cached: other screens ask for other fields of these providers, and neither should evict the other's.
  const { data } = useQuery(ProviderBannerDocument, { fetchPolicy: 'no-cache', errorPolicy: 'all' });
  const [dismissed, setDismissed] = useState(readDismissed);
  const content = providerBannerContent(data?.chatProvider ?? undefined, data?.imageProvider ?? undefined);
  if (!content || dismissed === content.signature || screenLabelsItsOwnDemo(pathname)) return null;

  const isDemo = content.chat === 'demo' || content.images === 'demo';
  const lines: ReactNode[] = [];
  if (content.chat === 'demo' && content.images === 'demo') lines.push(t('providers.banner.demoBoth'));
  else if (content.chat === 'demo') lines.push(t('providers.banner.demoChat'));
  else if (content.images === 'demo') lines.push(t('providers.banner.demoImages'));
  if (content.chat === 'detected') {
    lines.push(t('providers.banner.detectedChat', { model: data?.chatProvider.model, server: data?.chatProvider.server }));
  }
  if (content.images === 'detected') {
    lines.push(t('providers.banner.detectedImages', { model: data?.imageProvider.model, server: data?.imageProvider.server }));
  }
  if (content.chat === 'demo') {
    lines.push(
      <Trans i18nKey="providers.banner.connectChat" values={{ baseUrl: 'CHAT_API_BASE_URL', model: 'CHAT_MODEL' }} components={{ code }} />,
    );
  }
  if (content.images === 'demo') {
    lines.push(
      <Trans i18nKey="providers.banner.connectImages" values={{ a1111: 'A1111_URL', comfyui: 'COMFYUI_URL' }} components={{ code }} />,
    );
  }

  const dismiss = () => {
    rememberDismissed(content.signature);
    setDismissed(content.signature);
  };

  return (
    <Box as="section" aria-label={t('providers.banner.label')} mb="6" data-testid="provider-banner" data-demo={isDemo}>
      {/* A note, not an alert: it is there from the start and need not interrupt a screen reader on every screen. */}
      <Alert.Root role="note" status={isDemo ? 'warning' : 'info'} alignItems="flex-start">
        <Alert.Indicator />
        <Box flex="1" minW="0">
          <Alert.Title>{isDemo ? t('providers.banner.demoTitle') : t('providers.banner.detectedTitle')}</Alert.Title>
          <Alert.Description>
            {lines.map((line, index) => (
              <Text key={index} fontSize="sm" overflowWrap="anywhere">
                {line}
              </Text>
            ))}
          </Alert.Description>
        </Box>
        <CloseButton size="xs" mt="-1" me="-1" aria-label={t('providers.banner.dismiss')} onClick={dismiss} />
      </Alert.Root>
    </Box>
  );
}
