import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { NewStoryDialog } from './components/new-story-dialog';
import { StoriesHome } from './components/story-list';
import { StoryReader } from './components/story-reader';

function StoriesListPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('stories.documentTitle'));
  const [creating, setCreating] = useState(false);
  return (
    <>
      <StoriesHome onNewStory={() => setCreating(true)} />
      <NewStoryDialog open={creating} onClose={() => setCreating(false)} />
    </>
  );
}

/** Stories: the member's interactive stories (`/stories`) and the one being read (`/stories/:storyId`). */
export default function StoriesPage() {
  const { storyId } = useParams();
  // Keyed by story: each one starts with its own live state.
  return storyId ? <StoryReader key={storyId} storyId={storyId} /> : <StoriesListPage />;
}
