import { Portal, Stack, Toast, Toaster } from '@chakra-ui/react';
import { toaster } from '../lib/toaster';

/** The single toast region: full width on phones, at most 420px wide from medium screens up. */
export function AppToaster() {
  return (
    <Portal>
      <Toaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root
            width={{ base: 'full', md: '420px' }}
            maxWidth="calc(100vw - 2rem)"
            data-variant={(toast.meta as { variant?: string } | undefined)?.variant ?? 'default'}
          >
            <Toast.Indicator />
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            {toast.action && <Toast.ActionTrigger>{toast.action.label}</Toast.ActionTrigger>}
            {toast.closable && <Toast.CloseTrigger aria-label="Close notification" />}
          </Toast.Root>
        )}
      </Toaster>
    </Portal>
  );
}
