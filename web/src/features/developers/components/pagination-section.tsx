import { Trans, useTranslation } from 'react-i18next';
import { EXAMPLE_OPERATIONS } from '../api-examples';
import { CodeBlock, DevelopersSection, INLINE_CODE, Paragraph } from './developers-section';

export function PaginationSection() {
  const { t } = useTranslation();
  return (
    <DevelopersSection id="pagination" title={t('developers.pagination.title')}>
      <Paragraph>
        <Trans
          i18nKey="developers.pagination.intro"
          values={{
            nodes: 'nodes',
            edges: 'edges { cursor node }',
            pageInfo: 'pageInfo { startCursor endCursor hasNextPage hasPreviousPage }',
            totalCount: 'totalCount',
          }}
          components={{ code: INLINE_CODE }}
        />
      </Paragraph>
      <Paragraph>
        <Trans
          i18nKey="developers.pagination.forwards"
          values={{ first: 'first', after: 'after', cursor: 'endCursor', more: 'hasNextPage', fields: 'publicImages, myImages' }}
          components={{ code: INLINE_CODE }}
        />
      </Paragraph>
      <CodeBlock
        code={EXAMPLE_OPERATIONS.nextImages}
        label={t('developers.pagination.forwardsLabel')}
        testId="developers-pagination-forwards"
      />
      <Paragraph>
        <Trans
          i18nKey="developers.pagination.backwards"
          values={{ last: 'last', before: 'before', cursor: 'startCursor', more: 'hasPreviousPage', field: 'messages' }}
          components={{ code: INLINE_CODE }}
        />
      </Paragraph>
      <CodeBlock code={EXAMPLE_OPERATIONS.olderMessages} label={t('developers.pagination.backwardsLabel')} />
      <Paragraph>
        <Trans
          i18nKey="developers.pagination.both"
          values={{ fields: 'conversations, characters, publicCharacters' }}
          components={{ code: INLINE_CODE }}
        />
      </Paragraph>
    </DevelopersSection>
  );
}
