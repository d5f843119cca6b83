import { createHash } from 'node:crypto';
import { AppError, CHAT_LIMITS, type Message } from '@app/schema';
import { type Request, type Response, Router } from 'express';
import getRawBody from 'raw-body';
import {
  characterAvatar,
  createCharacter,
  deleteCharacter,
  exportCharacterCard,
  getCharacter,
  importCharacterCard,
  listPublicCharacters,
  listRecentCharacters,
  updateCharacter,
} from '../characters/characters.operations';
import {
  createConversation,
  deleteConversation,
  getConversation,
  listMessages,
  listRecentConversations,
  regenerateReply,
  editMessage,
  deleteMessage,
  continueReply,
  selectBranch,
  renameConversation,
  sendMessageAndWait,
  stopReply,
} from '../conversations/conversations.operations';
import { chatModels, myPersona, updateConversationSettings, updatePersona } from '../conversations/chat-settings.operations';
import { toCharacterType } from '../graphql/chat.mappers';
import type { Services } from '../operations/caller';
import { queryNumber } from '../operations/input';
import { type Route, bodyObject, jsonBody, optionalJsonBody } from './route';

const CARD_LIMIT_MB = CHAT_LIMITS.cardFileBytes / (1024 * 1024);
/** The compatible lists' page sizes when the client names none. */
const MESSAGES_DEFAULT = 100;
const PUBLIC_CHARACTERS_DEFAULT = CHAT_LIMITS.publicCharactersPageDefault;

/**
 * Reads a card upload (raw-body), counting bytes as they arrive. A declared or streamed size past the card limit
 * is answered 413 at once and the connection closed, so the client stops sending and nothing past the limit is
 * held (body-parser would read the rest of the request to its end before answering).
 */
async function readCardFile(req: Request, res: Response): Promise<Buffer> {
  const encoding = req.headers['content-encoding'];
  if (encoding && encoding !== 'identity') throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the card file uncompressed.');
  try {
    const file = await getRawBody(req, { length: req.headers['content-length'], limit: CHAT_LIMITS.cardFileBytes });
    if (file.length === 0) throw new AppError('VALIDATION_FAILED', 'Send the card file (PNG or JSON) as the request body');
    return file;
  } catch (error) {
    if (error instanceof AppError) throw error;
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

/** Spec §3 message fields first; the rest (status, swipes) helps richer clients. */
const restMessage = ({ id, role, content, createdAt, ...rest }: Message) => ({ id, role, content, createdAt, ...rest });

/** The compatible chat and character endpoints (SPEC §7): one-line adapters over the chat operations. */
export function chatRoutes(services: Services, route: Route): Router {
  const router = Router();
  const id = (req: Request, name = 'id') => String(req.params[name]);

  router.get(
    '/conversations',
    route(async (_req, res, caller) => res.json(await listRecentConversations(services, caller))),
  );
  router.post(
    '/conversations',
    jsonBody,
    route(async (req, res, caller) => {
      const { title, characterId } = bodyObject(req);
      const conversation = await createConversation(services, caller, {
        title,
        characterId: typeof characterId === 'string' ? characterId : null,
      });
      res.status(201).json(conversation);
    }),
  );
  router.get(
    '/conversations/:id',
    route(async (req, res, caller) => res.json(await getConversation(services, caller, id(req)))),
  );
  router.patch(
    '/conversations/:id',
    jsonBody,
    route(async (req, res, caller) => res.json(await renameConversation(services, caller, id(req), { title: bodyObject(req).title }))),
  );
  router.delete(
    '/conversations/:id',
    route(async (req, res, caller) => {
      await deleteConversation(services, caller, id(req));
      res.status(204).end();
    }),
  );
  router.get(
    '/conversations/:id/messages',
    route(async (req, res, caller) => {
      const page = await listMessages(services, caller, id(req), {
        limit: queryNumber(req.query.limit) ?? MESSAGES_DEFAULT,
        beforeSeq: queryNumber(req.query.before),
      });
      // Older pages: ?before=<seq of the first message>.
      res.setHeader('X-Has-Older', String(page.hasOlder));
      res.json(page.messages.map(restMessage));
    }),
  );
  router.post(
    '/chat/:conversationId',
    jsonBody,
    route(async (req, res, caller) => {
      const sent = await sendMessageAndWait(services, caller, id(req, 'conversationId'), bodyObject(req).content);
      res.json({ userMessage: restMessage(sent.userMessage), assistantMessage: restMessage(sent.assistantMessage) });
    }),
  );
  router.post(
    '/chat/:conversationId/stop',
    route(async (req, res, caller) => res.json({ stopped: await stopReply(services, caller, id(req, 'conversationId')) })),
  );
  router.post(
    '/chat/:conversationId/regenerate',
    optionalJsonBody,
    route(async (req, res, caller) => {
      const { messageId } = bodyObject(req);
      const message = await regenerateReply(services, caller, id(req, 'conversationId'), typeof messageId === 'string' ? messageId : null);
      res.status(202).json(restMessage(message));
    }),
  );
  // The message tree: a new version beside a message (edit), deletion of a message and what follows it, a reply
  // continued as a new version, and which branch is shown.
  router.put(
    '/messages/:id',
    jsonBody,
    route(async (req, res, caller) => {
      const edited = await editMessage(services, caller, id(req), bodyObject(req).content);
      res.status(201).json({ message: restMessage(edited.message), reply: edited.reply ? restMessage(edited.reply) : null });
    }),
  );
  router.delete(
    '/messages/:id',
    route(async (req, res, caller) => res.json(await deleteMessage(services, caller, id(req)))),
  );
  router.post(
    '/messages/:id/continue',
    route(async (req, res, caller) => res.status(202).json(restMessage(await continueReply(services, caller, id(req))))),
  );
  router.post(
    '/messages/:id/branch',
    optionalJsonBody,
    route(async (req, res, caller) => {
      const end = bodyObject(req).end === 'here' ? 'here' : 'latest';
      res.json(await selectBranch(services, caller, id(req), end));
    }),
  );

  router.put(
    '/conversations/:id/settings',
    jsonBody,
    route(async (req, res, caller) => res.json(await updateConversationSettings(services, caller, id(req), bodyObject(req)))),
  );
  router.get(
    '/chat/models',
    route(async (_req, res, caller) => res.json(await chatModels(services, caller))),
  );
  router.get(
    '/persona',
    route(async (_req, res, caller) => res.json(await myPersona(services, caller))),
  );
  router.put(
    '/persona',
    jsonBody,
    route(async (req, res, caller) => res.json(await updatePersona(services, caller, bodyObject(req)))),
  );

  router.get(
    '/characters',
    route(async (_req, res, caller) =>
      res.json((await listRecentCharacters(services, caller)).map((character) => toCharacterType(character, caller.user?.id))),
    ),
  );
  router.get(
    '/characters/public',
    route(async (req, res, caller) => {
      const page = await listPublicCharacters(services, caller, { limit: queryNumber(req.query.limit) ?? PUBLIC_CHARACTERS_DEFAULT });
      res.json(page.items.map((character) => toCharacterType(character, caller.user?.id)));
    }),
  );
  router.post(
    '/characters/import',
    route(async (req, res, caller) => {
      const imported = await importCharacterCard(services, caller, () => readCardFile(req, res));
      res.status(201).json(toCharacterType(imported, caller.user?.id));
    }),
  );
  router.post(
    '/characters',
    jsonBody,
    route(async (req, res, caller) =>
      res.status(201).json(toCharacterType(await createCharacter(services, caller, bodyObject(req)), caller.user?.id)),
    ),
  );
  router.get(
    '/characters/:id',
    route(async (req, res, caller) => res.json(toCharacterType(await getCharacter(services, caller, id(req)), caller.user?.id))),
  );
  router.put(
    '/characters/:id',
    jsonBody,
    route(async (req, res, caller) =>
      res.json(toCharacterType(await updateCharacter(services, caller, id(req), bodyObject(req)), caller.user?.id)),
    ),
  );
  router.delete(
    '/characters/:id',
    route(async (req, res, caller) => {
      await deleteCharacter(services, caller, id(req));
      res.json({ ok: true });
    }),
  );
  router.get(
    '/characters/:id/card',
    route(async (req, res, caller) => {
      const file = await exportCharacterCard(services, caller, id(req), req.query.format ?? 'png');
      res.setHeader('Content-Type', file.contentType);
      res.setHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`);
      res.setHeader('Cache-Control', 'no-store');
      res.send(Buffer.from(file.bodyBase64, 'base64'));
    }),
  );
  router.get(
    '/characters/:id/avatar',
    route(async (req, res, caller) => {
      const avatar = await characterAvatar(services, caller, id(req));
      // Revalidated on each use (a 304 by ETag when unchanged): a hidden character or a changed preference shows at once.
      const body = Buffer.from(avatar.bodyBase64, 'base64');
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      res.setHeader('Cache-Control', 'private, no-cache');
      res.setHeader('ETag', etag);
      if (req.headers['if-none-match'] === etag) return res.status(304).end();
      res.setHeader('Content-Type', avatar.contentType);
      res.send(body);
    }),
  );
  return router;
}
