import { Field } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/**
 * A labelled form control with its error under it. The label text is exactly `label` (no
 * required marker) so the control can be found by its label.
 */
export function FormField({
  label,
  error,
  helperText,
  children,
}: {
  label: string;
  error?: string;
  helperText?: string;
  children: ReactNode;
}) {
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label>{label}</Field.Label>
      {children}
      {helperText && !error && <Field.HelperText>{helperText}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
