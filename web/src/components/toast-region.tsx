import { createToaster, Portal, Stack, Toast, Toaster } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { attachToastStore, TOASTER_OPTIONS } from '../lib/toaster';

const toastStore = createToaster(TOASTER_OPTIONS);
attachToastStore(toastStore);

/**
 * The single toast region: full width on phones, at most 420px wide from medium screens up. Loaded by
 * AppToaster with the first toast, so no page pays for it (nor for Chakra's toast machines) up front.
 */
export default function ToastRegion() {
  const { t } = useTranslation();
  return (
    <Portal>
      <Toaster toaster={toastStore} insetInline={{ mdDown: '4' }}>
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
            {toast.closable && <Toast.CloseTrigger aria-label={t('toasts.closeNotification')} />}
          </Toast.Root>
        )}
      </Toaster>
    </Portal>
  );
}
