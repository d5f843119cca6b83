import { PageHeader } from '../components/page-header';

export default function CharactersPage() {
  return <PageHeader title="AI Characters" description="Create characters with their own personality, or discover public ones." />;
}
