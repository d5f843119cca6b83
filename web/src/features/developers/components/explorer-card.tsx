import { Button, Card, Text } from '@chakra-ui/react';
import { Trans, useTranslation } from 'react-i18next';
import { isExplorerEnabled } from '../../../lib/app-config';
import { ACCESS_TOKENS, EXPLORER_PATH, SCHEMA_FILE_PATH } from '../api-facts';
import { INLINE_CODE } from './developers-section';

// Lower case: the explorer also hands its headers to the WebSocket as connection parameters, where the gateway reads `authorization`.
const HEADERS_EXAMPLE = `{ "authorization": "Bearer ${ACCESS_TOKENS.prefix}…" }`;

/** Where to try the API and read its schema: the explorer when the operator serves it, the repository's schema file always. */
export function ExplorerCard() {
  const { t } = useTranslation();
  const hasExplorer = isExplorerEnabled();
  return (
    <Card.Root variant="subtle" data-testid="developers-explorer">
      <Card.Body gap="3">
        <Card.Title as="h2">{t(hasExplorer ? 'developers.explorer.title' : 'developers.explorer.schemaTitle')}</Card.Title>
        {hasExplorer && (
          <>
            <Text color="fg.muted">{t('developers.explorer.text')}</Text>
            <Text color="fg.muted">
              <Trans i18nKey="developers.explorer.headers" values={{ example: HEADERS_EXAMPLE }} components={{ code: INLINE_CODE }} />
            </Text>
          </>
        )}
        <Text color="fg.muted">
          <Trans
            i18nKey={hasExplorer ? 'developers.explorer.schema' : 'developers.explorer.schemaOnly'}
            values={{ path: SCHEMA_FILE_PATH }}
            components={{ code: INLINE_CODE }}
          />
        </Text>
      </Card.Body>
      {hasExplorer && (
        <Card.Footer>
          {/* A page of its own (GraphiQL), served by the gateway: a full load, not a route of this app. */}
          <Button asChild colorPalette="purple">
            <a href={EXPLORER_PATH}>{t('developers.explorer.open')}</a>
          </Button>
        </Card.Footer>
      )}
    </Card.Root>
  );
}
