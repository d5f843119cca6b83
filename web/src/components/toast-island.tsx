import { ChakraProvider } from '@chakra-ui/react';
import { system } from '../theme/system';
import ToastRegion from './toast-region';

/** The toast region for a page rendered without the UI kit (the landing): it brings its own Chakra provider. */
export default function ToastIsland() {
  return (
    <ChakraProvider value={system}>
      <ToastRegion />
    </ChakraProvider>
  );
}
