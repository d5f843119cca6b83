import { Box, Button, Field, Fieldset, Flex, HStack, IconButton, Input, SimpleGrid, Stack, Text, Wrap } from '@chakra-ui/react';
import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PlusIcon } from '../../../components/icons/chat-icons';
import { CloseIcon } from '../../../components/icons/icons';
import {
  addStopSequence,
  EMPTY_SAMPLER_FORM,
  formatExtraValue,
  isSamplerFormEmpty,
  NUMBER_FIELDS,
  SAMPLER_LIMITS,
  samplerProblems,
  visibleStopSequence,
  type NumberField,
  type SamplerForm,
  type SamplerSettingsValue,
} from '../sampler-model';

function useNumberFormat() {
  const { i18n } = useTranslation();
  return (value: number) => new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 3 }).format(value);
}

function NumberSetting({
  field,
  value,
  inherited,
  problem,
  onChange,
}: {
  field: NumberField;
  value: string;
  inherited: number | null | undefined;
  problem: string | undefined;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const { min, max, step } = SAMPLER_LIMITS[field];
  const hasInherited = inherited !== null && inherited !== undefined;
  return (
    <Field.Root invalid={Boolean(problem)}>
      <Field.Label>{t(`chatSettings.sampler.fields.${field}`)}</Field.Label>
      <Input
        type="number"
        inputMode={field === 'maxTokens' ? 'numeric' : 'decimal'}
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={hasInherited ? format(inherited) : t('chatSettings.sampler.default')}
        data-testid={`sampler-${field}`}
      />
      {problem ? (
        <Field.ErrorText>{problem}</Field.ErrorText>
      ) : (
        <Field.HelperText>
          {t(`chatSettings.sampler.help.${field}`, { min: format(min), max: format(max) })}
          {hasInherited && <> {t('chatSettings.sampler.fromCharacter', { value: format(inherited) })}</>}
        </Field.HelperText>
      )}
    </Field.Root>
  );
}

function StopSequences({
  stops,
  inherited,
  onChange,
}: {
  stops: string[];
  inherited: readonly string[] | null | undefined;
  onChange: (stops: string[]) => void;
}) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const [typed, setTyped] = useState('');
  const isFull = stops.length >= SAMPLER_LIMITS.stopCount;

  const add = () => {
    const next = addStopSequence(stops, typed);
    if (next.length !== stops.length) {
      onChange(next);
      setTyped('');
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing) return;
    // Enter adds the sequence; it must not submit the dialog's form.
    event.preventDefault();
    add();
  };

  return (
    <Stack gap="2">
      <Field.Root disabled={isFull}>
        <Field.Label>{t('chatSettings.sampler.stop.label')}</Field.Label>
        <HStack w="full">
          <Input
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={onKeyDown}
            maxLength={SAMPLER_LIMITS.stopLength * 2}
            placeholder={t('chatSettings.sampler.stop.placeholder')}
          />
          <IconButton aria-label={t('chatSettings.sampler.stop.add')} variant="outline" onClick={add} disabled={isFull}>
            <PlusIcon />
          </IconButton>
        </HStack>
        <Field.HelperText>
          {t('chatSettings.sampler.stop.help', { max: format(SAMPLER_LIMITS.stopCount), length: format(SAMPLER_LIMITS.stopLength) })}
        </Field.HelperText>
      </Field.Root>
      {stops.length > 0 && (
        <Wrap
          gap="2"
          as="ul"
          listStyleType="none"
          m="0"
          p="0"
          aria-label={t('chatSettings.sampler.stop.chosen')}
          data-testid="stop-sequences"
        >
          {stops.map((stop) => (
            <li key={stop}>
              <Button
                size="xs"
                colorPalette="purple"
                variant="subtle"
                rounded="full"
                maxW="full"
                aria-label={t('chatSettings.sampler.stop.remove', { value: visibleStopSequence(stop) })}
                onClick={() => onChange(stops.filter((other) => other !== stop))}
              >
                <Box as="span" fontFamily="mono" truncate>
                  {visibleStopSequence(stop)}
                </Box>
                <CloseIcon boxSize="3" />
              </Button>
            </li>
          ))}
        </Wrap>
      )}
      {stops.length === 0 && inherited && inherited.length > 0 && (
        <Text fontSize="sm" color="fg.muted">
          {t('chatSettings.sampler.stop.fromCharacter', { values: inherited.map(visibleStopSequence).join('  ') })}
        </Text>
      )}
    </Stack>
  );
}

function ExtraSettings({
  form,
  inherited,
  problems,
  onChange,
}: {
  form: SamplerForm;
  inherited: Record<string, unknown> | null | undefined;
  problems: ReturnType<typeof samplerProblems>;
  onChange: (extras: SamplerForm['extras']) => void;
}) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const idBase = useId();
  const errorId = (index: number) => `${idBase}-extra-${index}-problem`;
  const rows = form.extras;
  const setRow = (index: number, changes: Partial<SamplerForm['extras'][number]>) =>
    onChange(rows.map((row, other) => (other === index ? { ...row, ...changes } : row)));
  const inheritedText = Object.entries(inherited ?? {})
    .map(([name, value]) => `${name} = ${formatExtraValue(value)}`)
    .join(', ');

  return (
    <Fieldset.Root minW="0">
      <Fieldset.Legend fontSize="sm" fontWeight="medium">
        {t('chatSettings.sampler.extras.label')}
      </Fieldset.Legend>
      <Fieldset.HelperText fontSize="sm" color="fg.muted">
        {t('chatSettings.sampler.extras.help', { max: format(SAMPLER_LIMITS.extrasCount) })}
      </Fieldset.HelperText>
      <Stack gap="3" mt="2" data-testid="sampler-extras">
        {rows.map((row, index) => {
          const problem = problems.extras[index];
          const number = index + 1;
          return (
            <Stack key={index} gap="1">
              <Flex gap="2" w="full" align="center">
                <Input
                  flex="1"
                  minW="0"
                  fontFamily="mono"
                  value={row.name}
                  onChange={(event) => setRow(index, { name: event.target.value })}
                  placeholder="min_p"
                  maxLength={40}
                  aria-label={t('chatSettings.sampler.extras.name', { number })}
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={problem ? errorId(index) : undefined}
                />
                <Input
                  flex="1"
                  minW="0"
                  value={row.value}
                  onChange={(event) => setRow(index, { value: event.target.value })}
                  placeholder="0.05"
                  maxLength={SAMPLER_LIMITS.extraValueLength}
                  aria-label={t('chatSettings.sampler.extras.value', { number })}
                  aria-invalid={problem ? true : undefined}
                  aria-describedby={problem ? errorId(index) : undefined}
                />
                <IconButton
                  aria-label={t('chatSettings.sampler.extras.remove', { number })}
                  variant="ghost"
                  size="sm"
                  onClick={() => onChange(rows.filter((_, other) => other !== index))}
                >
                  <CloseIcon />
                </IconButton>
              </Flex>
              {problem && (
                <Text id={errorId(index)} fontSize="xs" color="fg.error">
                  {t(`chatSettings.sampler.problems.${problem}`)}
                </Text>
              )}
            </Stack>
          );
        })}
        {problems.extrasCount && (
          <Text fontSize="sm" color="fg.error" role="alert">
            {t('chatSettings.sampler.problems.extrasCount', { max: format(SAMPLER_LIMITS.extrasCount) })}
          </Text>
        )}
        <Box>
          <Button
            size="sm"
            variant="outline"
            disabled={rows.length >= SAMPLER_LIMITS.extrasCount}
            onClick={() => onChange([...rows, { name: '', value: '' }])}
          >
            <PlusIcon />
            {t('chatSettings.sampler.extras.add')}
          </Button>
        </Box>
        {rows.length === 0 && inheritedText && (
          <Text fontSize="sm" color="fg.muted">
            {t('chatSettings.sampler.extras.fromCharacter', { values: inheritedText })}
          </Text>
        )}
      </Stack>
    </Fieldset.Root>
  );
}

/**
 * The sampler settings as a form section: an empty field takes the default (the character's, then the provider's).
 * `inherited` (the character's settings, when editing a conversation) shows what an empty field falls back to.
 */
export function SamplerFields({
  value,
  onChange,
  inherited,
}: {
  value: SamplerForm;
  onChange: (value: SamplerForm) => void;
  inherited?: SamplerSettingsValue | null;
}) {
  const { t } = useTranslation();
  const format = useNumberFormat();
  const problems = samplerProblems(value);
  const numberProblem = (field: NumberField) => {
    const problem = problems.numbers[field];
    if (!problem) return undefined;
    const { min, max } = SAMPLER_LIMITS[field];
    return t(`chatSettings.sampler.problems.${problem}`, { min: format(min), max: format(max) });
  };

  return (
    <Stack gap="5" data-testid="sampler-fields">
      <Flex gap="3" justify="space-between" align="flex-start" wrap="wrap">
        <Text fontSize="sm" color="fg.muted" flex="1" minW="12rem">
          {t(inherited ? 'chatSettings.sampler.introConversation' : 'chatSettings.sampler.intro')}
        </Text>
        <Button size="sm" variant="ghost" onClick={() => onChange(EMPTY_SAMPLER_FORM)} disabled={isSamplerFormEmpty(value)}>
          {t('chatSettings.sampler.reset')}
        </Button>
      </Flex>
      <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
        {NUMBER_FIELDS.map((field) => (
          <NumberSetting
            key={field}
            field={field}
            value={value[field]}
            inherited={inherited?.[field]}
            problem={numberProblem(field)}
            onChange={(next) => onChange({ ...value, [field]: next })}
          />
        ))}
      </SimpleGrid>
      <StopSequences stops={value.stop} inherited={inherited?.stop} onChange={(stop) => onChange({ ...value, stop })} />
      <ExtraSettings form={value} inherited={inherited?.extras} problems={problems} onChange={(extras) => onChange({ ...value, extras })} />
    </Stack>
  );
}
