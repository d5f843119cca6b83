import { Text } from '@chakra-ui/react';
import { LegalPageLayout } from './legal-page-layout';

export default function TosPage() {
  return (
    <LegalPageLayout title="Terms of Service" dateLabel="Effective date: September 1, 2025">
      <Text>By using this service you confirm that you are at least 18 years old and agree to these terms.</Text>
    </LegalPageLayout>
  );
}
