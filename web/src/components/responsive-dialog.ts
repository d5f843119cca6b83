import type { HTMLChakraProps } from '@chakra-ui/react';

/**
 * Dialog.Content styles for `size={{ base: 'full', md: 'md' }}`: the `full` size's height, margin and square corners
 * are not undone by `md`, so from md up they are reset here and the dialog is a centred card again.
 */
export const FULL_ON_PHONES_CONTENT: HTMLChakraProps<'div'> = {
  minH: { base: '100dvh', md: 'auto' },
  my: { base: '0', md: 'auto' },
  borderRadius: { base: '0', md: 'l3' },
};
