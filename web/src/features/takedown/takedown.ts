/**
 * The takedown request form (anyone, signed in or not): `POST /api/takedown` with plain `fetch`, so
 * the signed-out page loads no GraphQL client. The server checks the same rules (TakedownInput in
 * schema/src/bus/moderation.ts) and answers field errors under the same names.
 */
import { i18n } from '../../i18n/i18n';
import { isValidEmail, type FieldErrors } from '../auth/registration-validation';
import { MODERATION_LIMITS } from '../moderation/moderation';
import { ApiError } from '../../lib/session-api';

export const TAKEDOWN_PATH = '/api/takedown';

export type TakedownKindValue = 'intimate_image' | 'rights';
export type TakedownRequesterValue = 'depicted_person' | 'authorised_representative';

export interface TakedownForm {
  kind: TakedownKindValue | '';
  /** Links to (or ids of) the images and characters on this site. */
  content: string;
  /** Why it was shared without consent, or how it infringes the right. */
  statement: string;
  /** Intimate images: the person shown, or someone acting for them. */
  requester: TakedownRequesterValue | '';
  /** Rights: the work or right infringed. */
  work: string;
  /** Rights: the requester owns the right or may act for its owner. */
  authorised: boolean;
  name: string;
  email: string;
  /** The full name, typed as an electronic signature. */
  signature: string;
  goodFaith: boolean;
}

export type TakedownField = keyof TakedownForm;

export const EMPTY_TAKEDOWN_FORM: TakedownForm = {
  kind: '',
  content: '',
  statement: '',
  requester: '',
  work: '',
  authorised: false,
  name: '',
  email: '',
  signature: '',
  goodFaith: false,
};

export const TAKEDOWN_FIELDS: readonly TakedownField[] = Object.keys(EMPTY_TAKEDOWN_FORM) as TakedownField[];

export interface TakedownRequest {
  kind: TakedownKindValue;
  content: string;
  statement: string;
  requester?: TakedownRequesterValue;
  work?: string;
  authorised?: boolean;
  name: string;
  email: string;
  signature: string;
  goodFaith: boolean;
}

/** What the requester keeps: the reference to quote and the deadlines the site holds itself to. */
export interface TakedownReceipt {
  reference: string;
  /** The content is removed by then (48 hours). */
  removalDeadline: string;
  /** The request is resolved by then (7 business days). */
  resolutionDeadline: string;
  /** How many items on this site the request names. */
  items: number;
}

/** The form's problems, in the current language; empty when it can be sent. */
export function validateTakedown(form: TakedownForm): FieldErrors<TakedownField> {
  const errors: FieldErrors<TakedownField> = {};
  const blank = (value: string) => value.trim() === '';
  if (!form.kind) errors.kind = i18n.t('takedown.errors.kind');
  if (blank(form.content)) errors.content = i18n.t('takedown.errors.content');
  if (blank(form.statement)) {
    errors.statement = form.kind === 'rights' ? i18n.t('takedown.errors.statementRights') : i18n.t('takedown.errors.statementIntimate');
  }
  if (form.kind === 'intimate_image' && !form.requester) errors.requester = i18n.t('takedown.errors.requester');
  if (form.kind === 'rights') {
    if (blank(form.work)) errors.work = i18n.t('takedown.errors.work');
    if (!form.authorised) errors.authorised = i18n.t('takedown.errors.authorised');
  }
  if (blank(form.name)) errors.name = i18n.t('takedown.errors.name');
  if (!isValidEmail(form.email)) errors.email = i18n.t('validation.email');
  if (blank(form.signature)) errors.signature = i18n.t('takedown.errors.signature');
  if (!form.goodFaith) errors.goodFaith = i18n.t('takedown.errors.goodFaith');
  return errors;
}

/** The request body: texts trimmed, and only the fields of the chosen kind. */
export function toTakedownRequest(form: TakedownForm): TakedownRequest {
  const kind = form.kind || 'intimate_image';
  const common = {
    kind,
    content: form.content.trim(),
    statement: form.statement.trim(),
    name: form.name.trim(),
    email: form.email.trim(),
    signature: form.signature.trim(),
    goodFaith: form.goodFaith,
  };
  return kind === 'intimate_image'
    ? { ...common, requester: form.requester || undefined }
    : { ...common, work: form.work.trim(), authorised: form.authorised };
}

/** Server field errors under the form's own fields; any other goes to the form as a whole. */
export function placeServerFieldErrors(fieldErrors: Record<string, string>): {
  fieldErrors: FieldErrors<TakedownField>;
  unplaced: string | null;
} {
  const placed: FieldErrors<TakedownField> = {};
  let unplaced: string | null = null;
  for (const [field, message] of Object.entries(fieldErrors)) {
    if ((TAKEDOWN_FIELDS as readonly string[]).includes(field)) placed[field as TakedownField] = message;
    else unplaced ??= message;
  }
  return { fieldErrors: placed, unplaced };
}

function isReceipt(body: unknown): body is TakedownReceipt {
  if (!body || typeof body !== 'object') return false;
  const record = body as Record<string, unknown>;
  return (
    typeof record['reference'] === 'string' &&
    typeof record['removalDeadline'] === 'string' &&
    typeof record['resolutionDeadline'] === 'string' &&
    typeof record['items'] === 'number'
  );
}

/** Sends the request; rejects with an ApiError (code, message, fieldErrors) when it is refused. */
export async function submitTakedown(request: TakedownRequest, fetchImpl: typeof fetch = fetch): Promise<TakedownReceipt> {
  const response = await fetchImpl(TAKEDOWN_PATH, {
    method: 'POST',
    credentials: 'same-origin',
    cache: 'no-store',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(request),
  });
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) throw new ApiError(response.status, body);
  if (!isReceipt(body)) throw new ApiError(response.status, { message: 'The server answered without a receipt' });
  return body;
}

/** Limits the form's inputs enforce as you type (the server's). */
export const TAKEDOWN_LIMITS = { text: MODERATION_LIMITS.takedownText, field: MODERATION_LIMITS.takedownField, email: 254 } as const;
