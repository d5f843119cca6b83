import { Alert, Link } from '@chakra-ui/react';
import { Trans, useTranslation } from 'react-i18next';
import { getSupportEmail } from '../../../lib/app-config';
import { supportMailto } from '../../../lib/support-contact';

/**
 * When the operator requires verified ages and this member's is only declared: content above SAFE
 * is held back, and how to get verified (by writing to support; the provider flow comes later).
 */
export function AgeVerificationNote() {
  const { t } = useTranslation();
  const email = getSupportEmail();
  return (
    <Alert.Root status="info" data-testid="age-verification-note">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{t('ageVerification.title')}</Alert.Title>
        <Alert.Description>
          <Trans
            i18nKey="ageVerification.text"
            values={{ email }}
            components={{
              anchor: <Link href={supportMailto(email)} color="purple.200" textDecoration="underline" wordBreak="break-all" />,
            }}
          />
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
