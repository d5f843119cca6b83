import { endSession, onSessionEnd } from './session-events';

describe('session events', () => {
  it('calls each listener once, at the end of the session it was added in', () => {
    const first = jest.fn();
    const cancelled = jest.fn();
    onSessionEnd(first);
    const cancel = onSessionEnd(cancelled);
    cancel();
    endSession();
    endSession();
    expect(first).toHaveBeenCalledTimes(1);
    expect(cancelled).not.toHaveBeenCalled();
  });

  it('calls the other listeners when one throws', () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const after = jest.fn();
    onSessionEnd(() => {
      throw new Error('boom');
    });
    onSessionEnd(after);
    endSession();
    expect(after).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});
