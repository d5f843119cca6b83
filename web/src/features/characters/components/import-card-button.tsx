import { Button } from '@chakra-ui/react';
import { useRef, useState, type ChangeEvent } from 'react';
import { cardFileProblem } from '../character-form-model';
import { handleUnauthorized } from '../../../lib/error-toasts';
import { showToast } from '../../../lib/toaster';
import { UploadIcon } from '../../../components/icons/chat-icons';

const IMPORT_URL = '/api/characters/import';
const IMPORT_FAILED_TITLE = 'Import Failed';

async function serverMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // Not JSON (e.g. a proxy's error page): fall through to the generic text.
  }
  return 'The card could not be imported. Please try another file.';
}

/** Imports a Character Card (V1/V2/V3, PNG or JSON): the raw file goes to the REST endpoint. */
export function ImportCardButton({ onImported }: { onImported: (name: string) => void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [importing, setImporting] = useState(false);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Let the same file be chosen again after a failure.
    event.target.value = '';
    if (!file) return;
    const problem = cardFileProblem(file);
    if (problem) {
      showToast({ title: IMPORT_FAILED_TITLE, description: problem, variant: 'destructive' });
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
        showToast({ title: IMPORT_FAILED_TITLE, description: await serverMessage(response), variant: 'destructive' });
        return;
      }
      const character = (await response.json()) as { name?: string };
      const name = character.name ?? 'The character';
      showToast({ title: 'Character Imported!', description: `${name} was added to your characters.` });
      onImported(name);
    } catch {
      showToast({
        title: IMPORT_FAILED_TITLE,
        description: 'Cannot reach the server. Check your connection and try again.',
        variant: 'destructive',
      });
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
        aria-label="Character card file"
      />
      <Button variant="outline" onClick={() => inputRef.current?.click()} loading={importing} loadingText="Importing…">
        <UploadIcon />
        Import card
      </Button>
    </>
  );
}
