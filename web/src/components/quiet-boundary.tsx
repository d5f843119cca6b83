import { Component, type ReactNode } from 'react';

/** Around an optional part of the page (the toast region): if it fails, e.g. its chunk cannot load, it is left out and the page stays. */
export class QuietBoundary extends Component<{ what: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error): void {
    console.warn(`The ${this.props.what} could not load.`, error);
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
