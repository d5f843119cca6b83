import { createHash } from 'node:crypto';
import { AppError, CHAT_LIMITS, type Message, type User } from '@app/schema';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import getRawBody from 'raw-body';
import type { ChatClient } from '../chat-client';
import { toCharacterType } from '../graphql/chat.mappers';
import type { ContentAccess } from '../moderation/content-access';

type Handler = (req: Request, res: Response, user: User) => Promise<void>;

const CARD_LIMIT_MB = CHAT_LIMITS.cardFileBytes / (1024 * 1024);

/**
 * Reads a card upload (raw-body), counting bytes as they arrive. A declared or streamed size past the card limit
 * is answered 413 at once and the connection closed, so the client stops sending and nothing past the limit is
 * held (body-parser would read the rest of the request to its end before answering).
 */
async function readCardFile(req: Request, res: Response): Promise<Buffer> {
  const encoding = req.headers['content-encoding'];
  if (encoding && encoding !== 'identity') throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the card file uncompressed.');
  try {
    return await getRawBody(req, { length: req.headers['content-length'], limit: CHAT_LIMITS.cardFileBytes });
  } catch (error) {
    const { type, status } = error as { type?: string; status?: number };
    if (type === 'entity.too.large') {
      res.setHeader('Connection', 'close');
      throw new AppError('PAYLOAD_TOO_LARGE', `The card file is too large (the limit is ${CARD_LIMIT_MB} MB).`);
    }
    if (status !== undefined && status >= 400 && status < 500)
      throw new AppError('VALIDATION_FAILED', 'The card file did not arrive whole.');
    throw error;
  }
}

/** A signed-in handler whose failures take the one error path. */
function member(handler: Handler, sendError: (res: Response, error: unknown) => void): RequestHandler {
  return (req, res) => {
    void (async () => {
      const user = await req.state.user();
      if (!user) throw new AppError('UNAUTHENTICATED', 'Unauthorized');
      await handler(req, res, user);
    })().catch((error: unknown) => sendError(res, error));
  };
}

/** Spec §3 message fields first; the rest (status, swipes) helps richer clients. */
const restMessage = ({ id, role, content, createdAt, ...rest }: Message) => ({ id, role, content, createdAt, ...rest });

/** The compatible chat and character endpoints (SPEC §7); each is a thin call into the chat service. */
export function chatRoutes(
  chat: ChatClient,
  access: ContentAccess,
  jsonBody: RequestHandler,
  bodyObject: (req: Request) => Record<string, unknown>,
  sendError: (res: Response, error: unknown) => void,
): Router {
  const router = Router();
  const meta = (req: Request, user: User) => ({ requestId: req.state.requestId, userId: user.id });
  const on = (handler: Handler) => member(handler, sendError);
  const id = (req: Request, name = 'id') => String(req.params[name]);

  router.get(
    '/conversations',
    on(async (req, res, user) => {
      res.json(await chat.listRecentConversations(user.id, meta(req, user)));
    }),
  );
  router.post(
    '/conversations',
    jsonBody,
    on(async (req, res, user) => {
      const body = bodyObject(req);
      const characterId = typeof body.characterId === 'string' ? body.characterId : null;
      res.status(201).json(await chat.createConversation(user.id, body.title, characterId, access.ratingsFor(user), meta(req, user)));
    }),
  );
  router.get(
    '/conversations/:id',
    on(async (req, res, user) => {
      res.json(await chat.getConversation(user.id, id(req), meta(req, user)));
    }),
  );
  router.patch(
    '/conversations/:id',
    jsonBody,
    on(async (req, res, user) => {
      res.json(await chat.renameConversation(user.id, id(req), bodyObject(req).title, meta(req, user)));
    }),
  );
  router.delete(
    '/conversations/:id',
    on(async (req, res, user) => {
      await chat.deleteConversation(user.id, id(req), meta(req, user));
      res.status(204).end();
    }),
  );
  router.get(
    '/conversations/:id/messages',
    on(async (req, res, user) => {
      const limit = req.query.limit === undefined ? 100 : Number(req.query.limit);
      const before = req.query.before === undefined ? null : Number(req.query.before);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new AppError('VALIDATION_FAILED', 'limit must be between 1 and 100');
      if (before !== null && !Number.isInteger(before)) throw new AppError('VALIDATION_FAILED', 'before must be a message seq');
      const page = await chat.listMessages(user.id, id(req), limit, before, meta(req, user));
      // Older pages: ?before=<seq of the first message>.
      res.setHeader('X-Has-Older', String(page.hasOlder));
      res.json(page.messages.map(restMessage));
    }),
  );
  router.post(
    '/chat/:conversationId',
    jsonBody,
    on(async (req, res, user) => {
      const result = await chat.sendAndWait(user.id, id(req, 'conversationId'), bodyObject(req).content, meta(req, user));
      res.json({ userMessage: restMessage(result.userMessage), assistantMessage: restMessage(result.assistantMessage) });
    }),
  );
  router.post(
    '/chat/:conversationId/stop',
    on(async (req, res, user) => {
      res.json({ stopped: await chat.stopReply(user.id, id(req, 'conversationId'), meta(req, user)) });
    }),
  );
  router.post(
    '/chat/:conversationId/regenerate',
    on(async (req, res, user) => {
      res.status(202).json(restMessage(await chat.regenerateReply(user.id, id(req, 'conversationId'), meta(req, user))));
    }),
  );

  router.get(
    '/characters',
    on(async (req, res, user) => {
      res.json((await chat.listRecentCharacters(user.id, meta(req, user))).map((c) => toCharacterType(c, user.id)));
    }),
  );
  router.get(
    '/characters/public',
    on(async (req, res, user) => {
      const limit = req.query.limit === undefined ? 8 : Number(req.query.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new AppError('VALIDATION_FAILED', 'limit must be between 1 and 100');
      const page = await chat.listPublicCharacters(user.id, { first: limit }, access.ratingsFor(user), meta(req, user));
      res.json(page.items.map((c) => toCharacterType(c, user.id)));
    }),
  );
  router.post(
    '/characters/import',
    on(async (req, res, user) => {
      const body = await readCardFile(req, res);
      if (body.length === 0) throw new AppError('VALIDATION_FAILED', 'Send the card file (PNG or JSON) as the request body');
      res.status(201).json(toCharacterType(await chat.importCharacterCard(user.id, body, meta(req, user)), user.id));
    }),
  );
  router.post(
    '/characters',
    jsonBody,
    on(async (req, res, user) => {
      res.status(201).json(toCharacterType(await chat.createCharacter(user.id, bodyObject(req), meta(req, user)), user.id));
    }),
  );
  router.get(
    '/characters/:id',
    on(async (req, res, user) => {
      res.json(toCharacterType(await chat.getCharacter(user.id, id(req), access.ratingsFor(user), meta(req, user)), user.id));
    }),
  );
  router.put(
    '/characters/:id',
    jsonBody,
    on(async (req, res, user) => {
      res.json(toCharacterType(await chat.updateCharacter(user.id, id(req), bodyObject(req), meta(req, user)), user.id));
    }),
  );
  router.delete(
    '/characters/:id',
    on(async (req, res, user) => {
      await chat.deleteCharacter(user.id, id(req), meta(req, user));
      res.json({ ok: true });
    }),
  );
  router.get(
    '/characters/:id/card',
    on(async (req, res, user) => {
      const format = req.query.format ?? 'png';
      if (format !== 'png' && format !== 'json_v2' && format !== 'json_v3') {
        throw new AppError('VALIDATION_FAILED', 'format must be png, json_v2 or json_v3');
      }
      const file = await chat.exportCharacterCard(user.id, id(req), format, access.ratingsFor(user), meta(req, user));
      res.setHeader('Content-Type', file.contentType);
      res.setHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`);
      res.setHeader('Cache-Control', 'no-store');
      res.send(Buffer.from(file.bodyBase64, 'base64'));
    }),
  );
  router.get(
    '/characters/:id/avatar',
    on(async (req, res, user) => {
      const avatar = await chat.characterAvatar(user.id, id(req), access.ratingsFor(user), meta(req, user));
      if (!avatar) throw new AppError('NOT_FOUND', 'This character has no avatar');
      // Revalidated on each use (a 304 by ETag when unchanged): a hidden character or a changed preference shows at once.
      const body = Buffer.from(avatar.bodyBase64, 'base64');
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      res.setHeader('Cache-Control', 'private, no-cache');
      res.setHeader('ETag', etag);
      if (req.headers['if-none-match'] === etag) {
        res.status(304).end();
        return;
      }
      res.setHeader('Content-Type', avatar.contentType);
      res.send(body);
    }),
  );
  return router;
}
