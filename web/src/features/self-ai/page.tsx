import { Alert, Box, Button, Card, Heading, HStack, Icon, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { SelfAiAttestationFields } from './components/self-ai-attestation';
import { ArrowLeftIcon } from '../../components/icons/legal-icons';
import { UploadIcon } from '../../components/icons/landing-icons';
import { SelfAiFeatures, SelfAiHowItWorks, SelfAiPrivacyNote } from './components/self-ai-info';
import { SelfAiPhotos } from './components/self-ai-photos';
import { type SelfAiUploadOutcome, useSelfAiUppy } from './hooks/use-self-ai-uppy';
import { useSelfAiPhotos } from './hooks/use-self-ai-photos';
import { handleUnauthorized, TOASTS } from '../../lib/error-toasts';
import { isSignedOutError, type SelfAiAttestation, serverReasonOf, uploadRefusalOf } from './self-ai-api';
import { showToast } from '../../lib/toaster';

/** The member's reason for a refusal: the server's, in the interface language when it is a known one. */
function useRefusalText() {
  const { t } = useTranslation();
  return (error: unknown): string | undefined => {
    const refusal = uploadRefusalOf(error);
    if (refusal) return t(`selfAi.refusals.${refusal}`);
    return serverReasonOf(error);
  };
}

/**
 * Self-AI photo upload (spec §2, any path ending in -self-ai): the member confirms the photos are of
 * themselves and that they are adults, picks 1 to 5 photos in Uppy's dialog, and each uploaded file
 * is registered as a photo; their photos are listed below with a Delete button.
 */
export default function SelfAiPage() {
  const { t } = useTranslation();
  const refusalText = useRefusalText();
  const [attestation, setAttestation] = useState<SelfAiAttestation>({ ofSelf: false, adult: false });
  const [processing, setProcessing] = useState(false);
  const [uploadedCount, setUploadedCount] = useState<number | null>(null);
  const photos = useSelfAiPhotos();
  const attested = attestation.ofSelf && attestation.adult;

  const onComplete = ({ registered, refusals, failedCount }: SelfAiUploadOutcome) => {
    if (registered.length > 0) {
      setUploadedCount(registered.length);
      photos.add(registered);
    }
    if (refusals.some(isSignedOutError)) {
      handleUnauthorized();
      return;
    }
    if (failedCount > 0) {
      const reasons = [...new Set(refusals.map(refusalText).filter((reason): reason is string => Boolean(reason)))];
      const toast = TOASTS.uploadFailed;
      showToast({ ...toast, description: [toast.description, ...reasons].filter(Boolean).join(' ') });
      return;
    }
    if (registered.length > 0) showToast(TOASTS.uploadSucceeded);
  };

  const uploader = useSelfAiUppy({ getAttestation: () => attestation, onProcessingChange: setProcessing, onComplete });

  return (
    <Stack gap="10">
      <Stack gap="4">
        <Box>
          <Button asChild variant="ghost" size="sm" ms="-3">
            <RouterLink to="/">
              <ArrowLeftIcon />
              {t('selfAi.backToHome')}
            </RouterLink>
          </Button>
        </Box>
        <PageHeader title={t('selfAi.title')} description={t('selfAi.intro')} />
      </Stack>

      <Card.Root
        as="section"
        aria-labelledby="self-ai-upload"
        variant="outline"
        bgGradient="to-br"
        gradientFrom="purple.950"
        gradientTo="bg"
      >
        <Card.Body gap="6">
          <Stack gap="1">
            <Heading as="h2" size="lg" id="self-ai-upload">
              {t('selfAi.upload.heading')}
            </Heading>
            <Text color="fg.muted">{t('selfAi.upload.text')}</Text>
          </Stack>
          <SelfAiAttestationFields value={attestation} onChange={setAttestation} disabled={processing} />
          <Stack gap="2" align="flex-start">
            <Button
              colorPalette="purple"
              size="lg"
              onClick={uploader.open}
              disabled={!attested || !uploader.ready || processing}
              aria-describedby="self-ai-hint"
              data-testid="self-ai-select"
            >
              <Icon asChild>
                <UploadIcon />
              </Icon>
              {t('selfAi.upload.selectPhotos')}
            </Button>
            <Text id="self-ai-hint" fontSize="sm" color="fg.muted">
              {t('selfAi.upload.hint')}
            </Text>
            {!attested && (
              <Text fontSize="sm" color="fg.warning">
                {t('selfAi.upload.attestationRequired')}
              </Text>
            )}
          </Stack>
          <Box aria-live="polite">
            {processing && (
              <HStack gap="3" data-testid="self-ai-processing">
                <Spinner size="sm" color="purple.300" />
                <Text>{t('selfAi.upload.processing')}</Text>
              </HStack>
            )}
            {!processing && uploadedCount !== null && (
              <Alert.Root status="success" data-testid="self-ai-success">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Title>{t('selfAi.upload.successCount', { count: uploadedCount })}</Alert.Title>
                  <Alert.Description>{t('selfAi.upload.successText')}</Alert.Description>
                </Alert.Content>
              </Alert.Root>
            )}
          </Box>
        </Card.Body>
      </Card.Root>

      <SelfAiPhotos photos={photos} />
      <SelfAiFeatures />
      <SelfAiHowItWorks />
      <SelfAiPrivacyNote />
    </Stack>
  );
}
