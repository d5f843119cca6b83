import { RadioGroup, Stack, Text } from '@chakra-ui/react';
import { useId, type Ref } from 'react';

export interface Choice<T extends string> {
  value: T;
  label: string;
  /** A one-line explanation under the label; read as the radio's description. */
  description?: string;
}

/**
 * A labelled group of radio buttons, each with an optional explanation (its accessible description)
 * and the group's error under it. `inline` lays short choices side by side where there is room.
 */
export function ChoiceGroup<T extends string>({
  label,
  hideLabel = false,
  choices,
  value,
  onChange,
  error,
  inline = false,
  disabled = false,
  firstRadioRef,
  testId,
}: {
  label: string;
  /** The label is still read to assistive technology, only not drawn (a heading above says the same). */
  hideLabel?: boolean;
  choices: readonly Choice<T>[];
  value: T | null;
  onChange: (value: T) => void;
  error?: string;
  inline?: boolean;
  disabled?: boolean;
  /** The first radio, e.g. to move focus into the group when it appears. */
  firstRadioRef?: Ref<HTMLInputElement>;
  testId?: string;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <RadioGroup.Root
      value={value}
      onValueChange={(details) => details.value && onChange(details.value as T)}
      colorPalette="purple"
      invalid={Boolean(error)}
      disabled={disabled}
      aria-describedby={error ? errorId : undefined}
      data-testid={testId}
    >
      <RadioGroup.Label fontWeight="medium" fontSize="sm" mb="2" display="block" srOnly={hideLabel}>
        {label}
      </RadioGroup.Label>
      <Stack direction={inline ? { base: 'column', sm: 'row' } : 'column'} gap={inline ? { base: '2', sm: '5' } : '3'} wrap="wrap">
        {choices.map((choice, index) => {
          const descriptionId = `${id}-${choice.value}-description`;
          return (
            <RadioGroup.Item key={choice.value} value={choice.value} alignItems="flex-start" cursor="pointer">
              <RadioGroup.ItemHiddenInput
                ref={index === 0 ? firstRadioRef : undefined}
                aria-describedby={choice.description ? descriptionId : undefined}
              />
              <RadioGroup.ItemIndicator mt="0.5" />
              <Stack gap="0" minW="0">
                <RadioGroup.ItemText fontWeight="medium">{choice.label}</RadioGroup.ItemText>
                {choice.description && (
                  <Text as="span" id={descriptionId} fontSize="sm" color="fg.muted">
                    {choice.description}
                  </Text>
                )}
              </Stack>
            </RadioGroup.Item>
          );
        })}
      </Stack>
      {error && (
        <Text id={errorId} color="fg.error" fontSize="sm" mt="2">
          {error}
        </Text>
      )}
    </RadioGroup.Root>
  );
}
