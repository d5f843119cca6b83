import { Text } from '@chakra-ui/react';
import { LegalPageLayout } from './legal-page-layout';

export default function PrivacyPage() {
  return (
    <LegalPageLayout title="Privacy Policy" dateLabel="Last updated: July 18, 2025">
      <Text>This service is for adults only (18+). This policy explains what information we collect and how we use it.</Text>
    </LegalPageLayout>
  );
}
