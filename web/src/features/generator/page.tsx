import { Box, Card, Flex, Grid, Heading, Stack } from '@chakra-ui/react';
import { useApolloClient, useQuery } from '@apollo/client/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useCurrentUser } from '../../auth/auth-context';
import { CreationsGrid } from '../images/components/creations-grid';
import { GeneratorForm } from '../images/components/generator-form';
import { LatestCreation, LatestCreationHeading } from '../images/components/latest-creation';
import { ImageProviderDocument, MyImagesDocument } from '../images/operations';
import { DemoRendererNotice, TokenBalanceBadge } from '../images/components/media-parts';
import { useCachedImage, useImageDownload, useImageVisibility } from '../images/hooks/use-image-actions';
import { useImageGeneration, type GenerationJob } from '../images/hooks/use-image-generation';
import { PageHeader } from '../../components/page-header';
import type { ImageFieldsFragment } from '../../gql/graphql';
import { TOASTS } from '../../lib/error-toasts';
import { generationErrorToast, generationFailedToast } from '../images/generation-errors';
import {
  DEFAULT_IMAGE_SETTINGS,
  IMAGE_PAGE_SIZE,
  pickQuickIdeas,
  QUICK_IDEA_KEYS,
  quickIdea,
  readGeneratorHandOff,
  type ImageSettingsValue,
} from '../images/image-settings';
import { advancedFormFrom, hasAdvancedValues, readAdvancedForm, type AdvancedErrors, type AdvancedForm } from '../images/advanced-settings';
import { showToast } from '../../lib/toaster';

/**
 * Image generator (spec §2): prompt, quick ideas and settings; Generate Image follows the job's real
 * progress live; the result becomes the Latest Creation and Your Creations refreshes.
 *
 * "Use these settings" in the gallery opens this screen with the image's prompt and settings as
 * react-router location state (`{ generatorHandOff: { prompt, size, quality, style, advanced } }`, see
 * features/images/image-settings.ts): they prefill the form once, then the history entry's state is cleared so
 * a reload starts from the defaults.
 */
export default function GeneratorPage() {
  const { t, i18n } = useTranslation();
  const client = useApolloClient();
  const user = useCurrentUser();
  const location = useLocation();
  const navigate = useNavigate();
  const [handOff] = useState(() => readGeneratorHandOff(location.state));
  const [prompt, setPrompt] = useState(handOff?.prompt ?? '');
  const [settings, setSettings] = useState<ImageSettingsValue>(() =>
    handOff ? { size: handOff.size, quality: handOff.quality, style: handOff.style } : DEFAULT_IMAGE_SETTINGS,
  );
  const [advancedForm, setAdvancedForm] = useState<AdvancedForm>(() => advancedFormFrom(handOff?.advanced));
  const [advancedOpen, setAdvancedOpen] = useState(() => hasAdvancedValues(advancedForm));
  const [advancedErrors, setAdvancedErrors] = useState<AdvancedErrors>({});
  const [ideaKeys] = useState(() => pickQuickIdeas(QUICK_IDEA_KEYS));
  // Labels and prompts in the interface language, read on each render so a language change shows.
  const ideas = ideaKeys.map(quickIdea);
  const [selected, setSelected] = useState<ImageFieldsFragment | null>(null);
  const latestRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (handOff) void navigate('.', { replace: true, state: null });
  }, [handOff, navigate]);

  const { data: providerData } = useQuery(ImageProviderDocument, { errorPolicy: 'all' });
  const provider = providerData?.imageProvider ?? null;
  const creations = useQuery(MyImagesDocument, {
    variables: { first: IMAGE_PAGE_SIZE, search: null },
    // Fresh on entry (images may have been made or changed elsewhere), then from the cache.
    fetchPolicy: 'cache-and-network',
    nextFetchPolicy: 'cache-first',
    errorPolicy: 'all',
  });
  const [loadingMore, setLoadingMore] = useState(false);
  const connection = creations.data?.myImages;
  const images = connection?.edges.map((edge) => edge.node) ?? [];

  const onFinished = useCallback(
    (job: GenerationJob) => {
      if (job.status === 'DONE') {
        showToast(TOASTS.imageGenerated);
        if (job.image) setSelected(job.image);
        void client.refetchQueries({ include: [MyImagesDocument] });
      } else if (job.status === 'FAILED') {
        showToast(generationFailedToast(job.errorCode, job.errorMessage, job.policyCategory));
      } else if (job.status === 'CANCELLED') {
        showToast({ title: i18n.t('images.toasts.cancelled.title'), description: i18n.t('images.toasts.cancelled.description') });
      }
    },
    [client, i18n],
  );
  const generation = useImageGeneration({
    onFinished,
    onStartFailed: (error) => {
      const toast = generationErrorToast(error);
      if (toast) showToast(toast);
    },
  });

  // The latest creation: the one just made or picked, else the newest in Your Creations; read from
  // the cache so a visibility change shows at once.
  const latestFallback = selected ?? images[0] ?? null;
  const latest = useCachedImage(latestFallback?.id, latestFallback);
  const { setVisibility, updatingId } = useImageVisibility();
  const { download, downloadingId } = useImageDownload();

  const generate = () => {
    const text = prompt.trim();
    if (!text) {
      showToast(TOASTS.promptRequired);
      return;
    }
    if (generation.pending) return;
    const { settings: advanced, errors } = readAdvancedForm(advancedForm, provider?.advanced ?? [], provider?.samplers ?? []);
    setAdvancedErrors(errors);
    if (Object.keys(errors).length > 0) {
      setAdvancedOpen(true);
      return;
    }
    setPrompt(text);
    void generation.generate({ prompt: text, ...settings, ...advanced });
  };

  const loadMore = async () => {
    const endCursor = connection?.pageInfo.endCursor;
    if (!endCursor || loadingMore) return;
    setLoadingMore(true);
    try {
      await creations.fetchMore({ variables: { after: endCursor } });
    } catch {
      // The button stays for another try.
    } finally {
      setLoadingMore(false);
    }
  };

  const pick = (image: ImageFieldsFragment) => {
    setSelected(image);
    latestRef.current?.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
  };

  return (
    <Stack gap="6">
      <Flex gap="4" align={{ base: 'stretch', md: 'flex-start' }} direction={{ base: 'column', md: 'row' }} justify="space-between">
        <Box flex="1">
          <PageHeader title={t('images.generator.title')} description={t('images.generator.description')} />
        </Box>
        <Box alignSelf={{ base: 'flex-start', md: 'auto' }}>
          <TokenBalanceBadge testId="generator-token-count" />
        </Box>
      </Flex>
      {provider?.isDemo === true && <DemoRendererNotice />}

      <Grid templateColumns={{ base: '1fr', lg: 'minmax(0, 2fr) minmax(0, 3fr)' }} gap="6" alignItems="start">
        <Card.Root as="section" aria-labelledby="create-heading" variant="outline">
          <Card.Body gap="5">
            <Heading as="h2" id="create-heading" size="lg">
              {t('images.generator.createHeading')}
            </Heading>
            <GeneratorForm
              prompt={prompt}
              onPromptChange={setPrompt}
              settings={settings}
              onSettingsChange={setSettings}
              advanced={
                provider && {
                  honoured: provider.advanced,
                  samplers: provider.samplers,
                  form: advancedForm,
                  errors: advancedErrors,
                  open: advancedOpen,
                  onOpenChange: setAdvancedOpen,
                  onChange: (form) => {
                    setAdvancedForm(form);
                    setAdvancedErrors({});
                  },
                }
              }
              ideas={ideas}
              outOfTokens={(user.tokens ?? 0) <= 0}
              pending={generation.pending}
              job={generation.job}
              cancelling={generation.cancelling}
              onGenerate={generate}
              onCancel={() => void generation.cancel()}
            />
          </Card.Body>
        </Card.Root>

        <Card.Root as="section" aria-labelledby="latest-heading" variant="outline" ref={latestRef}>
          <Card.Body gap="5">
            <LatestCreationHeading id="latest-heading" />
            <LatestCreation
              image={latest}
              downloading={latest !== null && downloadingId === latest.id}
              updatingVisibility={latest !== null && updatingId === latest.id}
              onDownload={() => latest && void download(latest)}
              onVisibilityChange={(isPublic, rating) => latest && void setVisibility(latest, isPublic, rating)}
            />
          </Card.Body>
        </Card.Root>
      </Grid>

      <Box as="section" aria-labelledby="creations-heading">
        <Heading as="h2" id="creations-heading" size="lg" mb="4">
          {t('images.generator.creationsHeading')}
        </Heading>
        <CreationsGrid
          images={images}
          loading={creations.loading}
          error={Boolean(creations.error) && images.length === 0}
          selectedId={latest?.id ?? null}
          hasMore={connection?.pageInfo.hasNextPage ?? false}
          loadingMore={loadingMore}
          onSelect={pick}
          onLoadMore={() => void loadMore()}
          onRetry={() => void creations.refetch()}
        />
      </Box>
    </Stack>
  );
}
