import { Checkbox, Fieldset, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { SelfAiAttestation } from '../self-ai-api';

const ITEMS = ['ofSelf', 'adult'] as const satisfies readonly (keyof SelfAiAttestation)[];

/** The two confirmations a member gives before choosing photos; both are stored with each photo. */
export function SelfAiAttestationFields({
  value,
  onChange,
  disabled,
}: {
  value: SelfAiAttestation;
  onChange: (value: SelfAiAttestation) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Fieldset.Root disabled={disabled} data-testid="self-ai-attestation">
      <Fieldset.Legend>{t('selfAi.attestation.legend')}</Fieldset.Legend>
      <Stack gap="3" mt="2">
        {ITEMS.map((item) => (
          <Checkbox.Root
            key={item}
            checked={value[item]}
            onCheckedChange={(details) => onChange({ ...value, [item]: details.checked === true })}
            colorPalette="purple"
            alignItems="flex-start"
          >
            <Checkbox.HiddenInput />
            <Checkbox.Control mt="0.5" />
            <Checkbox.Label>{t(`selfAi.attestation.${item}`)}</Checkbox.Label>
          </Checkbox.Root>
        ))}
      </Stack>
    </Fieldset.Root>
  );
}
