import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ctxOf } from '../../http/auth.js';
import { ErrorBodySchema, ErrorResponses, PackageParams } from '../../http/schemas.js';
import { AppError } from '../../errors.js';
import { discardZip, isReceivedZip, receiveZip, tooLarge } from './received-zip.js';
import { presentVersion } from '../packages/presenter.js';
import { VersionSchema } from '../packages/schema.js';
import { packageName } from '../packages/service.js';

const ArtifactQuery = Type.Object(
  { version: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) },
  { additionalProperties: false },
);

const errors = {
  ...ErrorResponses,
  413: ErrorBodySchema,
  415: ErrorBodySchema,
};

/** `POST /packages/{vendor}/{name}/artifacts`: a zip body becomes a version of the package. */
export async function artifactRoutes(app: App): Promise<void> {
  const maxBytes = app.services.deps.config.artifactMaxBytes;

  // Only this plugin's routes read zip bodies: streamed into a temporary file, never held in
  // memory. The handler removes it; the hook covers requests refused before the handler runs.
  app.addContentTypeParser('application/zip', async (_req: unknown, body: Readable) =>
    receiveZip(body, maxBytes),
  );
  app.addHook('onResponse', async (req) => {
    if (isReceivedZip(req.body)) await discardZip(req.body);
  });

  app.post(
    '/packages/:vendor/:name/artifacts',
    {
      bodyLimit: maxBytes,
      config: { binaryBody: true },
      // After authentication: refuse a declared oversize body before reading it.
      onRequest: async (req) => {
        const length = req.headers['content-length'];
        if (length !== undefined && Number(length) > maxBytes) throw tooLarge(length, maxBytes);
      },
      schema: {
        tags: ['packages'],
        summary: 'Upload a zip as a version of an artifact package',
        params: PackageParams,
        querystring: ArtifactQuery,
        response: { 201: VersionSchema, ...errors },
      },
    },
    async (req, reply) => {
      if (!isReceivedZip(req.body)) {
        throw new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Send the zip itself as the body, with Content-Type: application/zip',
        );
      }
      const upload = req.body;
      const { version } = await req.server.services.artifacts
        .upload(
          { ...ctxOf(req), customerPrincipal: req.customerPrincipal },
          packageName(req.params.vendor, req.params.name),
          upload,
          req.query.version,
        )
        .finally(() => discardZip(upload));
      return reply.code(201).send(presentVersion(version, 0));
    },
  );
}
