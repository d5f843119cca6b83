import { pipeline } from 'node:stream/promises';
import { logger } from '@app/kit';
import { Router } from 'express';
import { deleteAccount, exportAccount } from '../account-data/account-data.operations';
import type { Services } from '../operations/caller';
import { type Route, bodyObject, jsonBody } from './route';

/** The member's own data (TRUST-AND-SAFETY 26): export as one archive, delete the account. */
export function accountDataRoutes(services: Services, route: Route): Router {
  const router = Router();
  const privately = { noStore: true };

  router.get(
    '/account/export',
    route(async (_req, res, caller) => {
      const archive = await exportAccount(services, caller);
      res.setHeader('Content-Type', 'application/zip');
      res.setHeader('Content-Disposition', `attachment; filename="${archive.fileName}"`);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      // Headers are sent: a failure from here on can only cut the download short.
      await pipeline(archive.stream, res).catch((error: unknown) =>
        logger.warn({ err: error, requestId: caller.meta.requestId }, 'account export cut short'),
      );
    }, privately),
  );
  router.post(
    '/account/delete',
    jsonBody,
    route(async (req, res, caller) => res.json({ ok: await deleteAccount(services, caller, bodyObject(req)) }), privately),
  );
  return router;
}
