import { Alert, Box, Button, Card, Checkbox, Code, Field, Heading, Input, Link, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { ChoiceGroup } from '../../components/choice-group';
import { FormField } from '../../components/form-field';
import { PageHeader } from '../../components/page-header';
import { getBrandName, getSupportEmail } from '../../lib/app-config';
import { formatDateTime } from '../moderation/moderation';
import type { FieldErrors } from '../auth/registration-validation';
import { ApiError } from '../../lib/session-api';
import { supportMailto } from '../../lib/support-contact';
import {
  EMPTY_TAKEDOWN_FORM,
  placeServerFieldErrors,
  submitTakedown,
  TAKEDOWN_LIMITS,
  toTakedownRequest,
  validateTakedown,
  type TakedownField,
  type TakedownForm,
  type TakedownKindValue,
  type TakedownReceipt,
  type TakedownRequesterValue,
} from './takedown';

const KINDS: readonly TakedownKindValue[] = ['intimate_image', 'rights'];
const REQUESTERS: readonly TakedownRequesterValue[] = ['depicted_person', 'authorised_representative'];

/** A required confirmation box with its error under it. */
function Confirmation({
  checked,
  onChange,
  label,
  error,
  testId,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  error?: string;
  testId: string;
}) {
  return (
    <Field.Root invalid={Boolean(error)}>
      <Checkbox.Root
        checked={checked}
        onCheckedChange={(details) => onChange(details.checked === true)}
        colorPalette="purple"
        alignItems="flex-start"
        data-testid={testId}
      >
        <Checkbox.HiddenInput />
        <Checkbox.Control mt="0.5" />
        <Checkbox.Label fontWeight="normal">{label}</Checkbox.Label>
      </Checkbox.Root>
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

/** The receipt: the reference and the deadlines, as dates and times in the interface language. */
function Receipt({ receipt, onAnother }: { receipt: TakedownReceipt; onAnother: () => void }) {
  const { t, i18n } = useTranslation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const email = getSupportEmail();
  const date = (iso: string) => formatDateTime(iso, i18n.language, { dateStyle: 'full', timeStyle: 'short' });
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <Card.Root variant="outline" data-testid="takedown-receipt">
      <Card.Body gap="5">
        <Heading as="h2" size="xl" ref={headingRef} tabIndex={-1} _focus={{ outline: 'none' }}>
          {t('takedown.receipt.title')}
        </Heading>
        <Box>
          <Text fontSize="sm" color="fg.muted">
            {t('takedown.receipt.reference')}
          </Text>
          <Code fontSize="xl" px="2" py="1" mt="1" data-testid="takedown-reference">
            {receipt.reference}
          </Code>
          <Text fontSize="sm" color="fg.muted" mt="1">
            {t('takedown.receipt.referenceHelp')}
          </Text>
        </Box>
        <Stack gap="2">
          <Text fontWeight="medium" data-testid="takedown-removal">
            {t('takedown.receipt.removal', { date: date(receipt.removalDeadline) })}
          </Text>
          <Text data-testid="takedown-resolution">{t('takedown.receipt.resolution', { date: date(receipt.resolutionDeadline) })}</Text>
          <Text color="fg.muted" fontSize="sm" data-testid="takedown-items">
            {t('takedown.receipt.items', { count: receipt.items })}
          </Text>
        </Stack>
        <Text fontSize="sm">
          <Trans
            i18nKey="takedown.receipt.contact"
            values={{ email }}
            components={{ anchor: <Link href={supportMailto(email)} color="purple.300" wordBreak="break-all" /> }}
          />
        </Text>
        <Box>
          <Button variant="outline" onClick={onAnother}>
            {t('takedown.receipt.another')}
          </Button>
        </Box>
      </Card.Body>
    </Card.Root>
  );
}

/**
 * Takedown requests (anyone, signed in or not): an intimate image shared without consent (TAKE IT
 * DOWN Act) or a rights complaint. The receipt gives the reference and the 48-hour removal and
 * 7-business-day resolution deadlines.
 */
export default function TakedownPage() {
  const { t } = useTranslation();
  const [values, setValues] = useState<TakedownForm>(EMPTY_TAKEDOWN_FORM);
  const [errors, setErrors] = useState<FieldErrors<TakedownField>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [receipt, setReceipt] = useState<TakedownReceipt | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstError = useRef(false);

  // After a refused submit, the first field with a problem gets the focus (and scrolls into view).
  useEffect(() => {
    if (!focusFirstError.current) return;
    focusFirstError.current = false;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid] input')?.focus();
  }, [errors]);

  const update = <K extends TakedownField>(field: K, value: TakedownForm[K]) => {
    const next = { ...values, [field]: value };
    setValues(next);
    // Validate on submit, then keep the messages current while typing.
    if (submitted) setErrors(validateTakedown(next));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const problems = validateTakedown(values);
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      focusFirstError.current = true;
      return;
    }
    setSending(true);
    setFormError(null);
    try {
      setReceipt(await submitTakedown(toTakedownRequest(values)));
    } catch (error) {
      if (ApiError.is(error)) {
        const { fieldErrors, unplaced } = placeServerFieldErrors(error.fieldErrors);
        if (Object.keys(fieldErrors).length > 0) {
          focusFirstError.current = true;
          setErrors(fieldErrors);
        }
        setFormError(
          unplaced ??
            (Object.keys(fieldErrors).length > 0
              ? null
              : error.code === 'RATE_LIMITED'
                ? (error.serverMessage ?? t('toasts.rateLimited.description'))
                : t('takedown.errors.failed')),
        );
      } else {
        setFormError(error instanceof TypeError ? t('takedown.errors.network') : t('takedown.errors.failed'));
      }
    } finally {
      setSending(false);
    }
  };

  const startOver = () => {
    setValues(EMPTY_TAKEDOWN_FORM);
    setErrors({});
    setSubmitted(false);
    setFormError(null);
    setReceipt(null);
  };

  return (
    <Box maxW="3xl" mx="auto" w="full">
      <PageHeader title={t('takedown.title')} description={t('takedown.intro', { brand: getBrandName() })} />
      {receipt ? (
        <Receipt receipt={receipt} onAnother={startOver} />
      ) : (
        <Card.Root variant="outline">
          <Card.Body>
            <form ref={formRef} onSubmit={(event) => void submit(event)} noValidate data-testid="takedown-form">
              <Stack gap="6">
                {formError && (
                  <Alert.Root status="error" role="alert" data-testid="form-error">
                    <Alert.Indicator />
                    <Alert.Description>{formError}</Alert.Description>
                  </Alert.Root>
                )}
                <ChoiceGroup
                  label={t('takedown.kindLegend')}
                  value={values.kind || null}
                  onChange={(kind) => update('kind', kind)}
                  error={errors.kind}
                  testId="takedown-kind"
                  choices={KINDS.map((kind) => ({
                    value: kind,
                    label: t(`takedown.kinds.${kind}.label`),
                    description: t(`takedown.kinds.${kind}.description`),
                  }))}
                />
                <FormField label={t('takedown.fields.content')} error={errors.content} helperText={t('takedown.fields.contentHelp')}>
                  <Textarea
                    name="content"
                    rows={3}
                    value={values.content}
                    maxLength={TAKEDOWN_LIMITS.text}
                    onChange={(event) => update('content', event.target.value)}
                  />
                </FormField>
                {values.kind === 'intimate_image' && (
                  <ChoiceGroup
                    label={t('takedown.fields.requester')}
                    value={values.requester || null}
                    onChange={(requester) => update('requester', requester)}
                    error={errors.requester}
                    testId="takedown-requester"
                    choices={REQUESTERS.map((requester) => ({
                      value: requester,
                      label: t(`takedown.fields.requesterOptions.${requester}`),
                    }))}
                  />
                )}
                {values.kind === 'rights' && (
                  <FormField label={t('takedown.fields.work')} error={errors.work} helperText={t('takedown.fields.workHelp')}>
                    <Textarea
                      name="work"
                      rows={2}
                      value={values.work}
                      maxLength={TAKEDOWN_LIMITS.text}
                      onChange={(event) => update('work', event.target.value)}
                    />
                  </FormField>
                )}
                {values.kind && (
                  <FormField
                    label={values.kind === 'rights' ? t('takedown.fields.statementRights') : t('takedown.fields.statementIntimate')}
                    error={errors.statement}
                  >
                    <Textarea
                      name="statement"
                      rows={4}
                      value={values.statement}
                      maxLength={TAKEDOWN_LIMITS.text}
                      onChange={(event) => update('statement', event.target.value)}
                    />
                  </FormField>
                )}
                {values.kind === 'rights' && (
                  <Confirmation
                    checked={values.authorised}
                    onChange={(checked) => update('authorised', checked)}
                    label={t('takedown.fields.authorised')}
                    error={errors.authorised}
                    testId="takedown-authorised"
                  />
                )}
                <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
                  <FormField label={t('takedown.fields.name')} error={errors.name}>
                    <Input
                      name="name"
                      autoComplete="name"
                      value={values.name}
                      maxLength={TAKEDOWN_LIMITS.field}
                      onChange={(event) => update('name', event.target.value)}
                    />
                  </FormField>
                  <FormField label={t('takedown.fields.email')} error={errors.email} helperText={t('takedown.fields.emailHelp')}>
                    <Input
                      type="email"
                      name="email"
                      autoComplete="email"
                      value={values.email}
                      maxLength={TAKEDOWN_LIMITS.email}
                      onChange={(event) => update('email', event.target.value)}
                    />
                  </FormField>
                </SimpleGrid>
                <FormField label={t('takedown.fields.signature')} error={errors.signature} helperText={t('takedown.fields.signatureHelp')}>
                  <Input
                    name="signature"
                    autoComplete="off"
                    value={values.signature}
                    maxLength={TAKEDOWN_LIMITS.field}
                    fontStyle="italic"
                    onChange={(event) => update('signature', event.target.value)}
                  />
                </FormField>
                <Confirmation
                  checked={values.goodFaith}
                  onChange={(checked) => update('goodFaith', checked)}
                  label={t('takedown.fields.goodFaith')}
                  error={errors.goodFaith}
                  testId="takedown-good-faith"
                />
                <Box>
                  <Button type="submit" colorPalette="purple" loading={sending} w={{ base: 'full', sm: 'auto' }}>
                    {t('takedown.submit')}
                  </Button>
                </Box>
              </Stack>
            </form>
          </Card.Body>
        </Card.Root>
      )}
    </Box>
  );
}
