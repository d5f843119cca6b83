import AwsS3, { type AwsBody } from '@uppy/aws-s3';
import Uppy, { type Meta, type UploadResult, type UppyFile } from '@uppy/core';
import Dashboard from '@uppy/dashboard';
import '@uppy/core/css/style.min.css';
import '@uppy/dashboard/css/style.min.css';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { refusalReasonOf, registerSelfAiPhoto, type SelfAiAttestation, type SelfAiPhoto } from '../self-ai-api';
import { createUploadSigner, finishedUploadOf, registerWithRetries, SELF_AI_RESTRICTIONS, type UploadSigner } from '../self-ai-upload';
import { buildUppyLocale, type TranslateUppyString } from '../self-ai-uppy-locale';

type SelfAiUppy = Uppy<Meta, AwsBody>;
type SelfAiFile = UppyFile<Meta, AwsBody>;

/** How one press of the dialog's upload button ended. */
export interface SelfAiUploadOutcome {
  /** Photos the server accepted. */
  registered: SelfAiPhoto[];
  /** Why the server refused the others (registration errors, in the order they happened). */
  refusals: unknown[];
  /** Files that did not end as photos: refused, or their bytes never arrived. */
  failedCount: number;
}

interface SelfAiUppyOptions {
  /** The member's attestation at the moment of uploading; both must be true. */
  getAttestation: () => SelfAiAttestation;
  onProcessingChange: (processing: boolean) => void;
  onComplete: (outcome: SelfAiUploadOutcome) => void;
}

const isAttested = ({ ofSelf, adult }: SelfAiAttestation) => ofSelf && adult;

interface RegistrationTexts {
  attestation: () => SelfAiAttestation;
  message: () => string;
  /** Shown on a file while a busy server's registration waits to be sent again. */
  busyMessage: (seconds: number) => string;
  /** The reason shown on a refused file, in the interface language when it is a known one. */
  refusalReason: (error: unknown) => string | undefined;
}

/**
 * Registers each uploaded file as a photo, one after the other, as Uppy's post-processing step: the
 * dialog shows the files as processing meanwhile (a busy server's answer is retried after its
 * Retry-After), and a refused file ends as failed with the reason.
 */
function registerUploads(uppy: SelfAiUppy, signer: UploadSigner, options: RegistrationTexts) {
  const run: { registered: SelfAiPhoto[]; refusals: unknown[] } = { registered: [], refusals: [] };
  const postProcessor = async (fileIDs: string[]) => {
    const files = fileIDs.map((id) => uppy.getFile(id)).filter((file): file is SelfAiFile => Boolean(file && !file.error));
    for (const file of files) uppy.emit('postprocess-progress', file, { mode: 'indeterminate', message: options.message() });
    for (const file of files) {
      const { key, location } = finishedUploadOf(file.response);
      const imageURL = signer.imageURLFor(key, location);
      try {
        if (!imageURL) throw new Error('Cannot upload to an undefined URL');
        const photo = await registerWithRetries(() => registerSelfAiPhoto(imageURL, options.attestation()), {
          onRetry: (_retry, seconds) =>
            uppy.emit('postprocess-progress', file, { mode: 'indeterminate', message: options.busyMessage(seconds) }),
        });
        run.registered.push(photo);
        uppy.emit('postprocess-complete', file);
      } catch (error) {
        run.refusals.push(error);
        const reason = options.refusalReason(error);
        uppy.emit('upload-error', file, reason ? new Error(reason) : error instanceof Error ? error : new Error(String(error)));
      } finally {
        signer.forget(key);
      }
    }
  };
  const takeRun = () => ({ registered: run.registered.splice(0), refusals: run.refusals.splice(0) });
  return { postProcessor, takeRun };
}

/**
 * The Self-AI upload dialog: an Uppy Dashboard in its own modal (images only, at most 5 files of
 * 10 MB, no automatic start), uploading each file by a single PUT to a target the server issues, then
 * registering it. Uppy's own texts follow the interface language.
 */
export function useSelfAiUppy(options: SelfAiUppyOptions) {
  const { t, i18n } = useTranslation();
  const [uppy, setUppy] = useState<SelfAiUppy | null>(null);
  // Uppy's callbacks read the latest page callbacks and texts, so they always act and speak as the page does now.
  const latest = useRef({
    ...options,
    processing: '',
    attestationRequired: '',
    busy: (_seconds: number): string => '',
    refusalReason: (_error: unknown): string | undefined => undefined,
  });
  useLayoutEffect(() => {
    latest.current = {
      ...options,
      processing: t('selfAi.upload.processing'),
      attestationRequired: t('selfAi.upload.attestationRequired'),
      busy: (seconds) => t('selfAi.upload.serverBusy', { count: seconds }),
      refusalReason: (error) => refusalReasonOf(error, (refusal) => t(`selfAi.refusals.${refusal}`)),
    };
  });

  useEffect(() => {
    const signer = createUploadSigner(window.location.href);
    const instance: SelfAiUppy = new Uppy<Meta, AwsBody>({
      id: 'self-ai',
      autoProceed: false,
      restrictions: SELF_AI_RESTRICTIONS,
      onBeforeUpload: (files) => {
        if (isAttested(latest.current.getAttestation())) return files;
        instance.info(latest.current.attestationRequired, 'error', 5000);
        return false;
      },
    });
    instance.use(Dashboard, {
      inline: false,
      target: document.body,
      theme: 'dark',
      closeModalOnClickOutside: false,
      disablePageScrollWhenModalOpen: true,
      proudlyDisplayPoweredByUppy: false,
      hidePauseResumeButton: true,
    });
    // Spec §9: multipart is for files above 100 MB; these are at most 10 MB, so each goes in one PUT.
    instance.use(AwsS3, { signRequest: signer.signRequest, shouldUseMultipart: false, limit: 3 });

    const registration = registerUploads(instance, signer, {
      attestation: () => latest.current.getAttestation(),
      message: () => latest.current.processing,
      busyMessage: (seconds) => latest.current.busy(seconds),
      refusalReason: (error) => latest.current.refusalReason(error),
    });
    const processor = async (fileIDs: string[]) => {
      latest.current.onProcessingChange(true);
      try {
        await registration.postProcessor(fileIDs);
      } finally {
        latest.current.onProcessingChange(false);
      }
    };
    instance.addPostProcessor(processor);

    const onComplete = (result: UploadResult<Meta, AwsBody>) => {
      const { registered, refusals } = registration.takeRun();
      const failedCount = result.failed?.length ?? 0;
      // Registered files leave the dialog; refused ones stay in it, marked failed, until removed or retried.
      for (const file of result.successful ?? []) instance.removeFile(file.id);
      if (failedCount === 0) void instance.getPlugin<Dashboard<Meta, AwsBody>>('Dashboard')?.closeModal();
      latest.current.onComplete({ registered, refusals, failedCount });
    };
    instance.on('complete', onComplete);
    setUppy(instance);
    return () => {
      instance.off('complete', onComplete);
      instance.removePostProcessor(processor);
      instance.destroy();
      setUppy(null);
    };
  }, []);

  // Uppy's texts (its restriction messages included) and the dialog's note, in the interface language, again on each change.
  useEffect(() => {
    if (!uppy) return;
    const translate: TranslateUppyString = (key, count) =>
      count === undefined ? t(`selfAi.uppy.${key}`) : t(`selfAi.uppy.${key}`, { count });
    uppy.setOptions({ locale: buildUppyLocale(translate, i18n.language) });
    const dashboard = uppy.getPlugin<Dashboard<Meta, AwsBody>>('Dashboard');
    dashboard?.setOptions({ note: t('selfAi.dialog.note') });
    // Uppy names its modal on an outer element, not on the element with role="dialog": name that one too.
    const dialog = dashboard?.el?.querySelector('.uppy-Dashboard-inner[role="dialog"]');
    dialog?.setAttribute('aria-label', t('selfAi.uppy.dashboardWindowTitle'));
    dialog?.setAttribute('aria-modal', 'true');
  }, [uppy, i18n.language, t]);

  const open = useCallback(() => {
    void uppy?.getPlugin<Dashboard<Meta, AwsBody>>('Dashboard')?.openModal();
  }, [uppy]);

  return { ready: uppy !== null, open };
}
