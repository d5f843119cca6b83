import { useSubscription } from '@apollo/client/react';
import { i18n } from '../../../i18n/i18n';
import { TOAST_DURATION_MS, toaster } from '../../../lib/toaster';
import { AchievementEarnedDocument, MyAchievementsDocument, ProfileDocument } from '../operations';

/**
 * Mounted in the member layout: an achievement earned anywhere in the app is announced, and the lists
 * refresh. It waits its turn behind the toast on screen (the toaster keeps one at a time and queues the
 * rest), so the "Image Generated!" that earned it is not cut short.
 */
export function AchievementToasts() {
  useSubscription(AchievementEarnedDocument, {
    ignoreResults: true,
    onData: ({ client, data }) => {
      const key = data.data?.achievementEarned.key;
      if (!key) return;
      toaster.create({
        title: i18n.t('achievements.unlocked', { name: i18n.t(`achievements.items.${key}.name`) }),
        description: i18n.t(`achievements.items.${key}.description`),
        type: 'success',
        duration: TOAST_DURATION_MS,
        closable: true,
        meta: { variant: 'default' },
      });
      void client.refetchQueries({ include: [MyAchievementsDocument, ProfileDocument] });
    },
    // A lost session is handled by the client's error link; a dropped event only means no toast.
    onError: () => undefined,
  });
  return null;
}
