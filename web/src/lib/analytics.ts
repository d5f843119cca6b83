/**
 * Web analytics facade. Calls are no-ops until a provider is wired in; callers never need to
 * know whether analytics is present (the spec says events are skipped when it is absent).
 */
export function trackPageView(path: string): void {
  void path;
}

export function trackEvent(category: string, label?: string, value?: number): void {
  void category;
  void label;
  void value;
}
