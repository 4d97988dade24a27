import type { HostAppStatusDto, InstallationDto, RepositoryDto } from './schema.js';
import type { InstallationRow } from './service.js';
import type { HostAppStatus, RepositoryView } from './views.js';
import { repositoriesOf } from './store.js';

export function presentStatus(status: HostAppStatus): HostAppStatusDto {
  return {
    configured: status.configured,
    app_id: status.appId,
    app_slug: status.appSlug,
    install_url: status.installUrl,
  };
}

export function presentInstallation(row: InstallationRow): InstallationDto {
  return {
    id: row.id,
    host_installation_id: Number(row.host_installation_id),
    account_login: row.account_login,
    account_type: row.account_type,
    repository_selection: row.repository_selection,
    status: row.status,
    repositories_count: repositoriesOf(row).length,
    claimed_at: row.claimed_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentRepository(view: RepositoryView): RepositoryDto {
  return {
    full_name: view.repo.full_name,
    clone_url: view.repo.clone_url,
    private: view.repo.private,
    default_branch: view.repo.default_branch,
    package: view.package,
  };
}
