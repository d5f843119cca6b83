import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Checkbox,
  Code,
  Fieldset,
  Flex,
  Heading,
  HStack,
  Input,
  Spinner,
  Stack,
  Text,
} from '@chakra-ui/react';
import { useQuery } from '@apollo/client/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AccessTokensDocument, CreateAccessTokenDocument, RevokeAccessTokenDocument } from './operations';
import { ChoiceGroup } from '../../components/choice-group';
import { FormField } from '../../components/form-field';
import { PageHeader } from '../../components/page-header';
import type { AccessTokensQuery, TokenScope } from '../../gql/graphql';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { TOASTS } from '../../lib/error-toasts';
import { ConfirmDialog } from '../../components/dialogs';
import { useMutationToast } from '../../hooks/use-mutation-toast';
import { getErrorCode } from '../../lib/graphql-errors';
import { showToast } from '../../lib/toaster';

type Token = AccessTokensQuery['accessTokens'][number];

const SCOPES: readonly TokenScope[] = ['READ', 'CHAT', 'GENERATE'];
const SCOPE_KEYS = { READ: 'read', CHAT: 'chat', GENERATE: 'generate' } as const satisfies Record<TokenScope, string>;
const EXPIRIES = ['30', '90', '365', 'never'] as const;
type Expiry = (typeof EXPIRIES)[number];
const NAME_MAX = 60;

function useDate() {
  const { i18n } = useTranslation();
  return (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(iso));
}

/** The form; on success the parent shows the secret once. */
function CreateTokenForm({ onCreated }: { onCreated: (secret: string, name: string) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<TokenScope[]>(['READ']);
  const [expiry, setExpiry] = useState<Expiry>('90');
  const [errors, setErrors] = useState<{ name?: string; scopes?: string }>({});
  const mutation = useMutationToast();
  const saving = mutation.pending;

  const toggle = (scope: TokenScope, on: boolean) =>
    setScopes((current) =>
      on ? SCOPES.filter((each) => each === scope || current.includes(each)) : current.filter((each) => each !== scope),
    );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      name: name.trim() ? undefined : t('accessTokens.form.nameRequired'),
      scopes: scopes.length ? undefined : t('accessTokens.form.scopesRequired'),
    };
    setErrors(found);
    if (found.name || found.scopes) return;
    const data = await mutation.run({
      mutation: CreateAccessTokenDocument,
      variables: { input: { name: name.trim(), scopes, expiresInDays: expiry === 'never' ? null : Number(expiry) } },
      refetchQueries: [AccessTokensDocument],
      awaitRefetchQueries: true,
      failure: TOASTS.accessTokenFailed,
      handleError: (error) => {
        // CONFLICT: the member already has as many tokens as allowed.
        if (getErrorCode(error) !== 'CONFLICT') return false;
        showToast({ ...TOASTS.accessTokenFailed, description: t('accessTokens.form.tooMany') });
        return true;
      },
    });
    if (!data) return;
    onCreated(data.createAccessToken.secret, data.createAccessToken.token.name);
    setName('');
  };

  return (
    <Card.Root asChild>
      <form onSubmit={(event: FormEvent) => void submit(event)} noValidate data-testid="access-token-form">
        <Card.Body gap="5">
          <Heading as="h2" size="md">
            {t('accessTokens.form.heading')}
          </Heading>
          <FormField label={t('accessTokens.form.name')} error={errors.name}>
            <Input
              value={name}
              maxLength={NAME_MAX}
              placeholder={t('accessTokens.form.namePlaceholder')}
              onChange={(event) => setName(event.target.value)}
            />
          </FormField>
          <Fieldset.Root invalid={Boolean(errors.scopes)}>
            <Fieldset.Legend>{t('accessTokens.form.scopes')}</Fieldset.Legend>
            <Stack gap="3" mt="2">
              {SCOPES.map((scope) => (
                <Checkbox.Root
                  key={scope}
                  checked={scopes.includes(scope)}
                  onCheckedChange={(details) => toggle(scope, details.checked === true)}
                  alignItems="flex-start"
                  colorPalette="purple"
                >
                  <Checkbox.HiddenInput />
                  <Checkbox.Control mt="0.5" />
                  <Stack gap="0">
                    <Checkbox.Label>{t(`accessTokens.scopes.${SCOPE_KEYS[scope]}.label`)}</Checkbox.Label>
                    <Text fontSize="sm" color="fg.muted">
                      {t(`accessTokens.scopes.${SCOPE_KEYS[scope]}.help`)}
                    </Text>
                  </Stack>
                </Checkbox.Root>
              ))}
            </Stack>
            <Fieldset.ErrorText>{errors.scopes}</Fieldset.ErrorText>
          </Fieldset.Root>
          <ChoiceGroup<Expiry>
            label={t('accessTokens.form.expiry')}
            value={expiry}
            onChange={setExpiry}
            inline
            choices={EXPIRIES.map((value) => ({ value, label: t(`accessTokens.expiry.${value}`) }))}
          />
          <Flex justify="flex-end">
            <Button type="submit" colorPalette="purple" loading={saving}>
              {t('accessTokens.form.submit')}
            </Button>
          </Flex>
        </Card.Body>
      </form>
    </Card.Root>
  );
}

/** The secret, shown this once, with a copy button. */
function NewSecret({ secret, name, onDone }: { secret: string; name: string; onDone: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    // No clipboard outside a secure context (plain http on a LAN address): the secret stays selectable.
    const copiedNow = await navigator.clipboard?.writeText(secret).then(
      () => true,
      () => false,
    );
    setCopied(Boolean(copiedNow));
  };
  return (
    <Alert.Root status="success" data-testid="access-token-secret" alignItems="flex-start">
      <Alert.Indicator />
      <Stack gap="3" flex="1" minW="0">
        <Alert.Title>{t('accessTokens.secret.title', { name })}</Alert.Title>
        <Alert.Description>{t('accessTokens.secret.text')}</Alert.Description>
        <Code p="2" wordBreak="break-all" data-testid="access-token-secret-value">
          {secret}
        </Code>
        <HStack gap="2">
          <Button size="sm" variant="outline" onClick={() => void copy()}>
            {copied ? t('accessTokens.secret.copied') : t('accessTokens.secret.copy')}
          </Button>
          <Button size="sm" variant="ghost" onClick={onDone}>
            {t('accessTokens.secret.done')}
          </Button>
        </HStack>
      </Stack>
    </Alert.Root>
  );
}

function RevokeDialog({ token, onClose }: { token: Token | null; onClose: () => void }) {
  const { t } = useTranslation();
  const mutation = useMutationToast();
  const revoke = async () => {
    if (!token) return;
    const data = await mutation.run({
      mutation: RevokeAccessTokenDocument,
      variables: { id: token.id },
      refetchQueries: [AccessTokensDocument],
      success: TOASTS.accessTokenRevoked,
      failure: TOASTS.accessTokenFailed,
    });
    if (data) onClose();
  };
  return (
    <ConfirmDialog
      open={token !== null}
      title={t('accessTokens.revoke.title', { name: token?.name ?? '' })}
      description={t('accessTokens.revoke.text')}
      confirmLabel={t('accessTokens.revoke.confirm')}
      busy={mutation.pending}
      onConfirm={() => void revoke()}
      onClose={onClose}
    />
  );
}

function TokenRow({ token, onRevoke }: { token: Token; onRevoke: () => void }) {
  const { t } = useTranslation();
  const date = useDate();
  return (
    <Card.Root size="sm" data-testid="access-token">
      <Card.Body>
        <Flex gap="3" justify="space-between" align={{ base: 'flex-start', sm: 'center' }} direction={{ base: 'column', sm: 'row' }}>
          <Stack gap="1" minW="0">
            <HStack gap="2" wrap="wrap">
              <Text fontWeight="semibold" wordBreak="break-word">
                {token.name}
              </Text>
              <Code fontSize="xs">{token.prefix}…</Code>
            </HStack>
            <HStack gap="1" wrap="wrap">
              {token.scopes.map((scope) => (
                <Badge key={scope} colorPalette="purple" variant="subtle">
                  {t(`accessTokens.scopes.${SCOPE_KEYS[scope]}.label`)}
                </Badge>
              ))}
            </HStack>
            <Text fontSize="sm" color="fg.muted">
              {[
                t('accessTokens.list.created', { date: date(token.createdAt) }),
                token.lastUsedAt ? t('accessTokens.list.lastUsed', { date: date(token.lastUsedAt) }) : t('accessTokens.list.neverUsed'),
                token.expiresAt ? t('accessTokens.list.expires', { date: date(token.expiresAt) }) : t('accessTokens.list.neverExpires'),
              ].join(' · ')}
            </Text>
          </Stack>
          <Button
            size="sm"
            variant="outline"
            colorPalette="red"
            onClick={onRevoke}
            aria-label={t('accessTokens.list.revokeNamed', { name: token.name })}
          >
            {t('accessTokens.list.revoke')}
          </Button>
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}

/** Settings → Access tokens: personal access tokens for the member's own apps (GraphQL API and /api). */
export default function AccessTokensPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('accessTokens.title'));
  const { data, loading, error, refetch } = useQuery(AccessTokensDocument, { fetchPolicy: 'cache-and-network' });
  const [created, setCreated] = useState<{ secret: string; name: string } | null>(null);
  const [revoking, setRevoking] = useState<Token | null>(null);
  const tokens = data?.accessTokens ?? [];

  return (
    <Stack gap="6" maxW="3xl">
      <PageHeader title={t('accessTokens.title')} description={t('accessTokens.intro')} />
      {created && <NewSecret secret={created.secret} name={created.name} onDone={() => setCreated(null)} />}
      <CreateTokenForm onCreated={(secret, name) => setCreated({ secret, name })} />
      <Stack gap="3" as="section" aria-labelledby="access-tokens-list">
        <Heading as="h2" size="md" id="access-tokens-list">
          {t('accessTokens.list.heading')}
        </Heading>
        {loading && !data ? (
          <Center py="6">
            <Spinner color="purple.300" aria-label={t('common.loading')} />
          </Center>
        ) : error && !data ? (
          <Stack align="flex-start" gap="2">
            <Text>{t('accessTokens.list.loadFailed')}</Text>
            <Button size="sm" variant="outline" onClick={() => void refetch()}>
              {t('accessTokens.list.retry')}
            </Button>
          </Stack>
        ) : tokens.length === 0 ? (
          <Text color="fg.muted" data-testid="access-tokens-empty">
            {t('accessTokens.list.empty')}
          </Text>
        ) : (
          tokens.map((token) => <TokenRow key={token.id} token={token} onRevoke={() => setRevoking(token)} />)
        )}
      </Stack>
      <RevokeDialog token={revoking} onClose={() => setRevoking(null)} />
    </Stack>
  );
}
