import { createToaster } from '@chakra-ui/react';

import type * as ToasterExports from './toaster';

type ToasterModule = typeof ToasterExports;

/** A fresh lib/toaster (its waiting list is module state), as the app has it before the toast region arrives. */
function freshToaster(): ToasterModule {
  let loaded: ToasterModule | undefined;
  jest.isolateModules(() => {
    loaded = jest.requireActual<ToasterModule>('./toaster');
  });
  return loaded!;
}

const titles = (store: Parameters<ToasterModule['attachToastStore']>[0]) => store.getVisibleToasts().map((toast) => toast.title);

describe('toaster', () => {
  it('keeps the toasts asked for before the region arrives, and shows them once it does', () => {
    const { toaster, showToast, attachToastStore, TOASTER_OPTIONS } = freshToaster();
    const requests = jest.fn();
    toaster.onRequest(requests);
    expect(toaster.hasRequests()).toBe(false);

    const id = showToast({ title: 'Thanks!', description: "We'll let you know." });
    expect(typeof id).toBe('string');
    expect(requests).toHaveBeenCalledTimes(1);
    expect(toaster.hasRequests()).toBe(true);

    const store = createToaster(TOASTER_OPTIONS);
    attachToastStore(store);
    expect(titles(store)).toEqual(['Thanks!']);
    expect(store.getVisibleToasts()[0]).toEqual(expect.objectContaining({ id, description: "We'll let you know.", closable: true }));
  });

  it('replaces a waiting toast with the next one, as on screen (one toast at a time)', () => {
    const { showToast, attachToastStore, TOASTER_OPTIONS } = freshToaster();
    showToast({ title: 'First' });
    showToast({ title: 'Second', variant: 'destructive' });
    const store = createToaster(TOASTER_OPTIONS);
    attachToastStore(store);
    expect(titles(store)).toEqual(['Second']);
    expect(store.getVisibleToasts()[0]).toEqual(expect.objectContaining({ type: 'error', meta: { variant: 'destructive' } }));
  });

  it('sends toasts straight to the region once it is there', () => {
    const { toaster, showToast, attachToastStore, TOASTER_OPTIONS } = freshToaster();
    const store = createToaster(TOASTER_OPTIONS);
    attachToastStore(store);
    const requests = jest.fn();
    toaster.onRequest(requests);
    const saved = showToast({ title: 'Saved' });
    expect(titles(store)).toEqual(['Saved']);
    expect(requests).not.toHaveBeenCalled();
    // An achievement waits its turn behind the toast on screen.
    toaster.create({ id: 'achievement', title: 'Unlocked', type: 'success' });
    expect(titles(store)).toEqual(['Saved']);
    toaster.remove(saved);
    expect(titles(store)).toEqual(['Unlocked']);
  });
});
