import { proxyTypeDefs } from '../areas/proxy/graphql.js';

/**
 * The GraphQL schema (service.md section 4 "GraphQL", decisions.md section 7). Field names are the
 * camelCase forms of the REST fields; every resolver calls the same services as the REST routes.
 */
export const typeDefs =
  proxyTypeDefs +
  /* GraphQL */ `
    scalar DateTime
    scalar JSON

    enum CustomerStatus {
      ACTIVE
      SUSPENDED
      FROZEN
      EXPIRED
    }

    enum GitProviderType {
      GITHUB
      GITLAB
      BITBUCKET
      GIT
      ARTIFACT
    }

    enum TokenScope {
      ADMIN
      DEVELOPER
      DOWNLOAD
      WEBHOOK
    }

    enum Period {
      LAST_7_DAYS
      LAST_30_DAYS
      LAST_90_DAYS
      LAST_365_DAYS
    }

    type PageInfo {
      hasNextPage: Boolean!
      endCursor: String
    }

    input Pagination {
      first: Int
      after: String
    }

    type PackageAccess {
      name: String!
      constraint: String!
      grantedAt: DateTime!
      viaCollection: String
    }

    type Customer {
      id: ID!
      name: String!
      email: String!
      externalId: String
      status: CustomerStatus!
      statusReason: String
      accessExpiresAt: DateTime
      packages: [PackageAccess!]!
      createdAt: DateTime!
      updatedAt: DateTime!
    }

    type CustomerEdge {
      node: Customer!
      cursor: String!
    }

    type CustomerConnection {
      edges: [CustomerEdge!]!
      pageInfo: PageInfo!
      totalCount: Int!
    }

    input CustomerFilter {
      status: CustomerStatus
    }

    type Version {
      version: String!
      versionNormalized: String!
      releasedAt: DateTime
      downloads: Int!
      yanked: Boolean!
      deprecated: Boolean!
      reference: String!
    }

    type Package {
      id: ID!
      name: String!
      description: String
      repositoryUrl: String!
      type: GitProviderType!
      versions: [Version!]!
      latestVersion: String
      syncedAt: DateTime
      syncStatus: String!
      syncError: String
      abandoned: Boolean!
      createdAt: DateTime!
    }

    type PackageEdge {
      node: Package!
      cursor: String!
    }

    type PackageConnection {
      edges: [PackageEdge!]!
      pageInfo: PageInfo!
      totalCount: Int!
    }

    input PackageFilter {
      "Substring of the package name."
      query: String
    }

    type Collection {
      slug: String!
      name: String!
      packages: [Package!]!
      createdAt: DateTime!
      updatedAt: DateTime!
    }

    type PackageDownloads {
      name: String!
      downloads: Int!
    }

    type DayDownloads {
      date: String!
      downloads: Int!
    }

    type DownloadStats {
      totalDownloads: Int!
      byPackage: [PackageDownloads!]!
      byDay: [DayDownloads!]!
    }

    type CustomerDownloads {
      customerId: String!
      name: String
      downloads: Int!
    }

    type RegistryStats {
      totalDownloads: Int!
      packages: Int!
      customers: Int!
      versions: Int!
      byDay: [DayDownloads!]!
      byPackage: [PackageDownloads!]!
      byCustomer: [CustomerDownloads!]!
    }

    type Vulnerability {
      id: ID!
      advisory: String!
      severity: String!
      affectedVersions: String!
      patchedVersions: String
      description: String
    }

    type HostAppStatus {
      configured: Boolean!
      appId: String
      appSlug: String
    }

    type HostAppInstallation {
      id: ID!
      accountLogin: String!
      accountType: String!
      repositorySelection: String!
      status: String!
    }

    type OAuthConnection {
      id: ID!
      provider: String!
      accountLogin: String
      scopes: [String!]!
      expiresAt: DateTime
      createdAt: DateTime!
      updatedAt: DateTime!
    }

    type AuditActor {
      kind: String!
      id: String
    }

    type AuditTarget {
      type: String!
      id: String!
    }

    type AuditLogEntry {
      id: ID!
      actor: AuditActor!
      action: String!
      target: AuditTarget!
      summary: JSON!
      ip: String
      userAgent: String
      createdAt: DateTime!
    }

    type AuditLogEdge {
      node: AuditLogEntry!
      cursor: String!
    }

    type AuditLogConnection {
      edges: [AuditLogEdge!]!
      pageInfo: PageInfo!
      totalCount: Int!
    }

    input AuditLogFilter {
      actor: String
      action: String
      target: String
      from: DateTime
      to: DateTime
    }

    type ScopedToken {
      id: ID!
      name: String!
      scope: TokenScope!
      packageScopes: [String!]!
      expiresAt: DateTime
      createdAt: DateTime!
      lastUsedAt: DateTime
    }

    type ComposerAuth {
      username: String!
      password: String!
      repositoryUrl: String!
    }

    type ScopedTokenCreatedResponse {
      token: ScopedToken!
      plainToken: String!
      composerAuth: ComposerAuth!
    }

    "The legacy regenerate answer: the new token and its plain value."
    type TokenResponse {
      token: ScopedToken!
      plainToken: String!
      composerAuth: ComposerAuth!
    }

    input CreateCustomerInput {
      name: String!
      email: String!
      externalId: String
      accessExpiresAt: DateTime
    }

    input UpdateCustomerInput {
      name: String
      email: String
      externalId: String
      accessExpiresAt: DateTime
    }

    input VersionFreeze {
      package: String!
      version: String!
    }

    input CreateTokenInput {
      name: String!
      scope: TokenScope
      packageScopes: [String!]
      expiresAt: DateTime
    }

    input PackageAccessInput {
      package: String!
      constraint: String
    }

    input AddPackageInput {
      name: String!
      repositoryUrl: String
      repositoryType: GitProviderType
      monorepoPaths: [String!]
    }

    "The multi-tenant name of AddPackageInput: the same fields."
    input CreatePackageInput {
      name: String!
      repositoryUrl: String
      repositoryType: GitProviderType
      monorepoPaths: [String!]
    }

    input CreateCollectionInput {
      name: String!
      slug: String!
      packages: [String!]
    }

    input UpdateCollectionInput {
      name: String
      packages: [String!]
      addPackages: [String!]
      removePackages: [String!]
    }

    type Query {
      customer(id: ID!): Customer
      customerByExternalId(externalId: String!): Customer
      customers(
        filter: CustomerFilter
        pagination: Pagination
        first: Int
        after: String
      ): CustomerConnection!
      package(name: String!): Package
      packages(
        filter: PackageFilter
        pagination: Pagination
        first: Int
        after: String
      ): PackageConnection!
      collection(slug: String!): Collection
      collections: [Collection!]!
      downloadStats(packageName: String, period: Period): DownloadStats!
      vulnerabilities(packageName: String): [Vulnerability!]!
      proxyStatus: ProxyStatus!
      auditLogs(
        filter: AuditLogFilter
        pagination: Pagination
        first: Int
        after: String
      ): AuditLogConnection!
      stats: RegistryStats!
      hostAppStatus: HostAppStatus!
      hostAppInstallations: [HostAppInstallation!]!
      oauthConnections: [OAuthConnection!]!
    }

    type Mutation {
      createCustomer(input: CreateCustomerInput!): Customer!
      updateCustomer(id: ID!, input: UpdateCustomerInput!): Customer!
      deleteCustomer(id: ID!): Boolean!
      suspendCustomer(id: ID!, reason: String): Customer!
      reactivateCustomer(id: ID!): Customer!
      freezeCustomer(id: ID!, versions: [VersionFreeze!]): Customer!
      createToken(customerId: ID!, input: CreateTokenInput!): ScopedTokenCreatedResponse!
      revokeToken(customerId: ID!, tokenId: ID!): Boolean!
      rotateToken(customerId: ID!, tokenId: ID!): ScopedTokenCreatedResponse!
      regenerateToken(customerId: ID!): TokenResponse!
      revokeAllTokens(customerId: ID!): Boolean!
      grantPackageAccess(customerId: ID!, packages: [PackageAccessInput!]!): Customer!
      revokePackageAccess(customerId: ID!, packageName: String!): Customer!
      addPackage(input: AddPackageInput!): Package!
      "The same as addPackage, under the name the multi-tenant (Cloud) API uses."
      createPackage(input: CreatePackageInput!): Package!
      syncPackage(name: String!): Package!
      deletePackage(name: String!): Boolean!
      createCollection(input: CreateCollectionInput!): Collection!
      updateCollection(slug: String!, input: UpdateCollectionInput!): Collection!
      deleteCollection(slug: String!): Boolean!
      removeHostAppInstallation(id: ID!): Boolean!
    }

    enum CustomerActivityType {
      DOWNLOAD
      TOKEN_CREATED
      TOKEN_REVOKED
      ACCESS_GRANTED
      ACCESS_REVOKED
      STATUS_CHANGED
    }

    type PackageSyncEvent {
      package: String!
      status: String!
      versionsAdded: [String!]!
      versionsRemoved: [String!]!
      error: String
      syncedAt: DateTime!
    }

    type CustomerActivityEvent {
      customerId: ID!
      type: CustomerActivityType!
      package: String
      version: String
      at: DateTime!
    }

    type Subscription {
      packageSynced(name: String): PackageSyncEvent!
      customerActivity(customerId: ID): CustomerActivityEvent!
    }
  `;
