import { i18n } from '../../i18n/i18n';
import { recordInterest, type InterestKind } from './interest';
import { showToast } from '../../lib/toaster';

/** Records the interest and thanks the visitor with a toast. */
export function registerInterest(kind: InterestKind, label: string): void {
  recordInterest(kind, label);
  showToast({ title: i18n.t('interest.thanksTitle'), description: i18n.t('interest.thanksText') });
}
