import { ChakraProvider } from '@chakra-ui/react';
import { system } from '../theme/system';
import LanguageMenu, { type LanguageMenuProps } from './language-menu';

/** The language menu for a page rendered without the UI kit (the landing): it brings its own Chakra provider. */
export default function LanguageMenuIsland(props: LanguageMenuProps) {
  return (
    <ChakraProvider value={system}>
      <LanguageMenu {...props} />
    </ChakraProvider>
  );
}
