import { contentPolicy } from '@app/kit';
import { AppError } from '@app/schema';

/** Refuses text that crosses the platform's hard lines (minors, real people, non-consent), whatever the field. */
export function assertAllowedContent(...texts: (string | null | undefined)[]): void {
  const verdict = contentPolicy.check(texts.filter(Boolean).join('\n'));
  if (!verdict.allowed) throw new AppError('CONTENT_REJECTED', verdict.reason!);
}
