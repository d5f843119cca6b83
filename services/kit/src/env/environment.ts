import { z } from 'zod';

/**
 * One environment variable: how its text becomes a value, and what the README says of it. Every process
 * reads its environment through one `Environment` built from these, so the types, defaults, checks and
 * documentation of a variable live in one place (the README's configuration table is generated from them).
 */
export interface Variable<T> {
  schema: z.ZodType<T, string | undefined>;
  /** The default as the README shows it (`unset`, `3000`, "90% of V8's heap limit"). */
  defaultText: string;
  /** What the variable does, one or two sentences for operators. */
  meaning: string;
  /** Secrets are never echoed in error messages. */
  secret?: boolean;
  /** An empty value means "empty", not "unset" (e.g. a negative prompt set to nothing). */
  keepsEmpty?: boolean;
}

type Variables = Record<string, Variable<unknown>>;
export type EnvValues<V extends Variables> = { [K in keyof V]: V[K] extends Variable<infer T> ? T : never };

/** A value that stops the process at start: the message names the variable and says what it must be. */
export class InvalidEnvironmentError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
    this.name = 'InvalidEnvironmentError';
  }
}

/** The variables one group of code reads (infrastructure, gateway, identity, …) and which processes read them. */
export class Environment<V extends Variables> {
  constructor(
    /** Who reads them, as the README's "Read by" column says. */
    readonly readBy: string,
    readonly variables: V,
  ) {}

  /** Every variable parsed, or one error naming each invalid one. */
  parse(env: NodeJS.ProcessEnv): EnvValues<V> {
    const values: Record<string, unknown> = {};
    const problems: string[] = [];
    for (const [name, variable] of Object.entries(this.variables)) {
      const raw = env[name]?.trim();
      const result = variable.schema.safeParse(raw === '' && !variable.keepsEmpty ? undefined : raw);
      if (result.success) values[name] = result.data;
      else problems.push(describeProblem(name, raw, result.error, variable.secret));
    }
    if (problems.length > 0) throw new InvalidEnvironmentError(problems);
    return values as EnvValues<V>;
  }
}

/** Checks every variable of `environments` at once, so an operator sees each invalid one in one message. */
export function assertValidEnvironment(env: NodeJS.ProcessEnv, environments: Environment<Variables>[]): void {
  const problems: string[] = [];
  for (const environment of environments) {
    try {
      environment.parse(env);
    } catch (error) {
      if (!(error instanceof InvalidEnvironmentError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0) throw new InvalidEnvironmentError(problems);
}

function describeProblem(name: string, raw: string | undefined, error: z.ZodError, secret = false): string {
  const reason = error.issues[0]?.message ?? 'is invalid';
  const shown =
    raw === undefined ? '' : secret ? ' (value hidden)' : `, got ${JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw)}`;
  return `${name} ${reason}${shown}`;
}

// Builders: each returns a Variable whose schema parses the variable's text (undefined when unset).

interface Doc {
  meaning: string;
  /** Overrides the default text derived from the default value. */
  defaultText?: string;
}

/** A whole number within bounds; `fallback` may be computed (it depends on the machine) or null (it depends on other settings). */
export function integer(fallback: number | (() => number), doc: Doc & { min?: number; max?: number }): Variable<number>;
export function integer(fallback: null, doc: Doc & { min?: number; max?: number }): Variable<number | null>;
export function integer(fallback: number | (() => number) | null, doc: Doc & { min?: number; max?: number }): Variable<number | null> {
  const min = doc.min ?? Number.MIN_SAFE_INTEGER;
  const max = doc.max ?? Number.MAX_SAFE_INTEGER;
  const bounds =
    doc.min !== undefined && doc.max !== undefined
      ? `between ${doc.min} and ${doc.max}`
      : doc.min !== undefined
        ? `of at least ${doc.min}`
        : doc.max !== undefined
          ? `of at most ${doc.max}`
          : '';
  const message = `must be a whole number${bounds ? ` ${bounds}` : ''}`;
  const schema = z
    .string()
    .optional()
    .transform((raw, context) => {
      if (raw === undefined) return typeof fallback === 'function' ? fallback() : fallback;
      const value = Number(raw);
      if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
        context.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return value;
    });
  const shown = typeof fallback === 'number' ? `\`${fallback}\`` : fallback === null ? 'unset' : 'computed';
  return { schema, defaultText: doc.defaultText ?? shown, meaning: doc.meaning };
}

/** A decimal number within bounds. */
export function decimal(fallback: number, doc: Doc & { min: number; max: number }): Variable<number> {
  const schema = z
    .string()
    .optional()
    .transform((raw, context) => {
      if (raw === undefined) return fallback;
      const value = Number(raw);
      if (!Number.isFinite(value) || value < doc.min || value > doc.max) {
        context.addIssue({ code: 'custom', message: `must be a number between ${doc.min} and ${doc.max}` });
        return z.NEVER;
      }
      return value;
    });
  return { schema, defaultText: doc.defaultText ?? `\`${fallback}\``, meaning: doc.meaning };
}

/** `true` or `false` (also `1`/`0`, `yes`/`no`, `on`/`off`). */
export function flag(fallback: boolean, doc: Doc): Variable<boolean> {
  const schema = z
    .string()
    .optional()
    .transform((raw, context) => {
      if (raw === undefined) return fallback;
      const value = raw.toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(value)) return true;
      if (['false', '0', 'no', 'off'].includes(value)) return false;
      context.addIssue({ code: 'custom', message: 'must be true or false' });
      return z.NEVER;
    });
  return { schema, defaultText: doc.defaultText ?? `\`${fallback}\``, meaning: doc.meaning };
}

/** Free text; `fallback` undefined means the variable may stay unset (null). */
type TextDoc = Doc & { minLength?: number; secret?: boolean; keepsEmpty?: boolean; pattern?: { test: RegExp; message: string } };

export function text(fallback: string, doc: TextDoc): Variable<string>;
export function text(fallback: null, doc: TextDoc): Variable<string | null>;
export function text(fallback: string | null, doc: TextDoc): Variable<string | null> {
  const minLength = doc.minLength ?? 0;
  const schema = z
    .string()
    .optional()
    .transform((raw, context) => {
      if (raw === undefined) return fallback;
      if (raw.length < minLength) {
        context.addIssue({ code: 'custom', message: `must be at least ${minLength} characters long` });
        return z.NEVER;
      }
      if (doc.pattern && !doc.pattern.test.test(raw)) {
        context.addIssue({ code: 'custom', message: doc.pattern.message });
        return z.NEVER;
      }
      return raw;
    });
  return {
    schema,
    defaultText: doc.defaultText ?? (fallback === null ? 'unset' : `\`${fallback}\``),
    meaning: doc.meaning,
    secret: doc.secret,
    keepsEmpty: doc.keepsEmpty,
  };
}

/** An absolute http(s) URL (or another scheme when `schemes` says so). */
export function url(fallback: string | null, doc: Doc & { schemes?: string[]; list?: boolean }): Variable<string | null> {
  const schemes = doc.schemes ?? ['http:', 'https:'];
  const valid = (value: string) => {
    try {
      return schemes.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  };
  const schema = z
    .string()
    .optional()
    .transform((raw, context) => {
      if (raw === undefined) return fallback;
      const parts = doc.list ? raw.split(',').map((part) => part.trim()) : [raw];
      if (!parts.every(valid)) {
        const names = schemes.map((scheme) => scheme.replace(':', '://')).join(' or ');
        context.addIssue({
          code: 'custom',
          message: `must be ${doc.list ? 'a comma-separated list of URLs' : 'a URL'} starting with ${names}`,
        });
        return z.NEVER;
      }
      return raw;
    });
  return { schema, defaultText: doc.defaultText ?? (fallback === null ? 'unset' : `\`${fallback}\``), meaning: doc.meaning };
}

/** One of a fixed set of words (compared case-insensitively). */
export function oneOf<const T extends string>(choices: readonly T[], fallback: T, doc: Doc): Variable<T>;
export function oneOf<const T extends string>(choices: readonly T[], fallback: null, doc: Doc): Variable<T | null>;
export function oneOf<const T extends string>(choices: readonly T[], fallback: T | null, doc: Doc): Variable<T | null> {
  const schema = z
    .string()
    .optional()
    .transform((raw, context) => {
      if (raw === undefined) return fallback;
      const value = choices.find((choice) => choice === raw.toLowerCase());
      if (value === undefined) {
        context.addIssue({ code: 'custom', message: `must be one of ${choices.join(', ')}` });
        return z.NEVER;
      }
      return value;
    });
  return { schema, defaultText: doc.defaultText ?? (fallback === null ? 'unset' : `\`${fallback}\``), meaning: doc.meaning };
}
