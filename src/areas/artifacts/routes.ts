import { Type } from 'typebox';
import type { App } from '../../http/app-types.js';
import { ErrorBodySchema, ErrorResponses, PackageParams } from '../../http/schemas.js';
import { AppError } from '../../errors.js';
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
  const tooLarge = (size: string) =>
    new AppError(
      'PAYLOAD_TOO_LARGE',
      `The artifact is ${size} bytes; the limit is ${maxBytes} bytes (ARTIFACT_MAX_BYTES)`,
    );

  // Only this plugin's routes read zip bodies, as raw bytes.
  app.addContentTypeParser(
    'application/zip',
    { parseAs: 'buffer', bodyLimit: maxBytes },
    (_req, body, done) => done(null, body),
  );

  app.post(
    '/packages/:vendor/:name/artifacts',
    {
      bodyLimit: maxBytes,
      config: { binaryBody: true },
      // After authentication: refuse a declared oversize body before reading it.
      onRequest: async (req) => {
        const length = req.headers['content-length'];
        if (length !== undefined && Number(length) > maxBytes) throw tooLarge(length);
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
      if (!Buffer.isBuffer(req.body)) {
        throw new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Send the zip itself as the body, with Content-Type: application/zip',
        );
      }
      const { version } = await req.server.services.artifacts.upload(
        req,
        packageName(req.params.vendor, req.params.name),
        req.body,
        req.query.version,
      );
      return reply.code(201).send(presentVersion(version, 0));
    },
  );
}
