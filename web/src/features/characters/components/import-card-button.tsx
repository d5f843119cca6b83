import { Button } from '@chakra-ui/react';
import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { cardFileProblem } from '../character-form-model';
import { handleUnauthorized } from '../../../lib/error-toasts';
import { showToast } from '../../../lib/toaster';
import { UploadIcon } from '../../../components/icons/chat-icons';

const IMPORT_URL = '/api/characters/import';

/** The server's own explanation (it says what is wrong with the card), or null. */
async function serverMessage(response: Response): Promise<string | null> {
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // Not JSON (e.g. a proxy's error page): fall through to the generic text.
  }
  return null;
}

/** Imports a Character Card (V1/V2/V3, PNG or JSON): the raw file goes to the REST endpoint. */
export function ImportCardButton({ onImported }: { onImported: (name: string) => void }) {
  const { t } = useTranslation();
  const inputRef = useRef<HTMLInputElement>(null);
  const [importing, setImporting] = useState(false);

  const showFailure = (description: string) =>
    showToast({ title: t('characters.import.failedTitle'), description, variant: 'destructive' });

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Let the same file be chosen again after a failure.
    event.target.value = '';
    if (!file) return;
    const problem = cardFileProblem(file);
    if (problem) {
      showFailure(problem);
      return;
    }
    setImporting(true);
    try {
      const response = await fetch(IMPORT_URL, {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': file.type || (file.name.toLowerCase().endsWith('.png') ? 'image/png' : 'application/json') },
        body: file,
      });
      if (response.status === 401) {
        handleUnauthorized();
        return;
      }
      if (!response.ok) {
        showFailure((await serverMessage(response)) ?? t('characters.import.failed'));
        return;
      }
      const character = (await response.json()) as { name?: string };
      const name = character.name ?? t('characters.import.unnamed');
      showToast({ title: t('characters.import.doneTitle'), description: t('characters.import.done', { name }) });
      onImported(name);
    } catch {
      showFailure(t('characters.import.offline'));
    } finally {
      setImporting(false);
    }
  };

  return (
    <>
      <input
        ref={inputRef}
        type="file"
        accept=".png,.json,image/png,application/json"
        hidden
        onChange={(event) => void onFile(event)}
        data-testid="import-card-input"
        aria-label={t('characters.import.fileLabel')}
      />
      <Button
        variant="outline"
        onClick={() => inputRef.current?.click()}
        loading={importing}
        loadingText={t('characters.import.importing')}
      >
        <UploadIcon />
        {t('characters.import.button')}
      </Button>
    </>
  );
}
