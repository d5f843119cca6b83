import { Button, Flex, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SUBJECT_PRESETS } from '../operator';
import { FormField } from '../../../components/form-field';
import type { AppliedFilter } from '../hooks/use-operator-events';

export interface FilterErrors {
  subject?: string;
  memberId?: string;
}

/** Subject pattern (typed, or one of the quick choices) and member id; Apply restarts the stream with them. */
export function EventFilterForm({
  initial,
  errors,
  onApply,
}: {
  initial: AppliedFilter;
  errors: FilterErrors;
  onApply: (filter: AppliedFilter) => void;
}) {
  const { t } = useTranslation();
  const presetsLabelId = useId();
  const [subject, setSubject] = useState(initial.subject);
  const [memberId, setMemberId] = useState(initial.memberId ?? '');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ subject: subject.trim(), memberId: memberId.trim() || null });
  };

  return (
    <form onSubmit={submit} noValidate data-testid="operator-event-filter">
      <Stack gap="4">
        <Flex gap="4" direction={{ base: 'column', md: 'row' }} align={{ base: 'stretch', md: 'flex-start' }}>
          <Stack gap="2" flex="1" minW="0">
            <FormField
              label={t('operator.events.filter.subject')}
              helperText={t('operator.events.filter.subjectHelp')}
              error={errors.subject}
            >
              <Input value={subject} onChange={(event) => setSubject(event.target.value)} fontFamily="mono" spellCheck={false} />
            </FormField>
            <HStack gap="2" wrap="wrap" role="group" aria-labelledby={presetsLabelId}>
              <Text id={presetsLabelId} fontSize="sm" color="fg.muted">
                {t('operator.events.filter.presets')}
              </Text>
              {SUBJECT_PRESETS.map((preset) => (
                <Button
                  key={preset.key}
                  size="xs"
                  variant={subject.trim() === preset.subject ? 'solid' : 'outline'}
                  colorPalette="purple"
                  aria-pressed={subject.trim() === preset.subject}
                  onClick={() => setSubject(preset.subject)}
                >
                  {t(`operator.events.presets.${preset.key}`)}
                </Button>
              ))}
            </HStack>
          </Stack>
          <Stack flex="1" minW="0">
            <FormField
              label={t('operator.events.filter.memberId')}
              helperText={t('operator.events.filter.memberIdHelp')}
              error={errors.memberId}
            >
              <Input value={memberId} onChange={(event) => setMemberId(event.target.value)} fontFamily="mono" spellCheck={false} />
            </FormField>
          </Stack>
        </Flex>
        <Flex justify="flex-end">
          <Button type="submit" colorPalette="purple" size="sm">
            {t('operator.events.filter.apply')}
          </Button>
        </Flex>
      </Stack>
    </form>
  );
}
