//! The plugin store (contract §20): installing from a marketplace in a
//! folder or a git repository, or a lone plugin from a git URL, pinning its
//! content by hash, joining only the enabled and unchanged, removing.

use crate::support::{commit_all, enabled, Home};
use agenthub_packages::plugins::{
    add_marketplace, install_plugin, owning_plugin, InstalledPlugin, PluginStore,
};

/// `plugin` without what only an install knows (its hash, links left out).
fn recorded(
    plugin: &InstalledPlugin,
) -> (String, Option<String>, Option<String>, std::path::PathBuf) {
    (
        plugin.name.clone(),
        plugin.marketplace.clone(),
        plugin.version.clone(),
        plugin.root.clone(),
    )
}

#[test]
fn install_copies_a_marketplaces_plugin_into_the_store_and_records_it() {
    let home = Home::new();
    home.install_guard();
    let installed = PluginStore::open().unwrap().installed().unwrap();
    let root = home.installed_root("guard");
    assert_eq!(
        (
            installed.iter().map(recorded).collect::<Vec<_>>(),
            std::fs::read_to_string(root.join("hooks/guard.sh")).unwrap()
        ),
        (
            vec![(
                "guard".to_owned(),
                Some("team-tools".to_owned()),
                Some("1.0.0".to_owned()),
                root
            )],
            "exit 2\n".to_owned()
        )
    );
}

#[test]
fn an_enabled_plugin_joins_the_session_and_a_disabled_one_does_not() {
    let home = Home::new();
    home.install_guard();
    let (on, on_warnings) = enabled(&[("guard@team-tools", true)]);
    let (off, off_warnings) = enabled(&[("guard@team-tools", false)]);
    let names: Vec<String> = on
        .iter()
        .map(|plugin| plugin.manifest.name.clone())
        .collect();
    assert_eq!(
        (names, on_warnings, off, off_warnings),
        (vec!["guard".to_owned()], vec![], vec![], vec![])
    );
}

#[test]
fn a_plugin_whose_files_changed_after_install_is_not_loaded_and_the_user_is_told() {
    let home = Home::new();
    home.install_guard();
    let root = home.installed_root("guard");
    std::fs::write(root.join("hooks/guard.sh"), "exit 0\n").unwrap();
    assert_eq!(
        enabled(&[("guard@team-tools", true)]),
        (
            vec![],
            vec![format!(
                "plugin \"guard@team-tools\" not loaded: its files in {} changed since it was \
                 installed; install it again to trust what it runs now",
                root.display()
            )]
        )
    );
}

#[test]
fn an_enabled_plugin_that_is_not_installed_is_a_warning_naming_the_install_command() {
    let home = Home::new();
    home.install_guard();
    assert_eq!(
        enabled(&[("ghost", true)]),
        (
            vec![],
            vec!["enabledPlugins names \"ghost\", which is not installed: \
                 `agenthub plugin install ghost`"
                .to_owned()]
        )
    );
}

#[test]
fn remove_takes_the_plugin_folder_out_of_the_store() {
    let home = Home::new();
    home.install_guard();
    let store = PluginStore::open().unwrap();
    let removed = store.remove("guard").unwrap();
    assert_eq!(
        (
            removed.id(),
            home.installed_root("guard").exists(),
            store.installed().unwrap()
        ),
        ("guard@team-tools".to_owned(), false, vec![])
    );
}

#[test]
fn owning_plugin_names_the_installed_plugin_whose_folder_holds_a_file() {
    let home = Home::new();
    home.install_guard();
    let inside = home.installed_root("guard").join("agents/reviewer.md");
    let outside = home.base.join("market/plugins/guard/agents/reviewer.md");
    assert_eq!(
        (owning_plugin(&inside), owning_plugin(&outside)),
        (Some("guard".to_owned()), None)
    );
}

#[test]
fn a_marketplace_in_a_git_repository_is_cloned_and_its_plugin_installs_from_it() {
    let home = Home::new();
    let market = home.market();
    commit_all(&market);
    let url = format!("file://{}", market.display());
    let added = add_marketplace(&url).unwrap();
    let installed = install_plugin("guard@team-tools").unwrap();
    assert_eq!(
        (added.name, added.source, installed.id()),
        ("team-tools".to_owned(), url, "guard@team-tools".to_owned())
    );
}

#[test]
fn a_lone_plugin_installs_from_a_git_url_under_its_manifests_name() {
    let home = Home::new();
    let guard = home.market().join("plugins/guard");
    commit_all(&guard);
    let installed = install_plugin(&format!("file://{}", guard.display())).unwrap();
    assert_eq!(
        recorded(&installed),
        (
            "guard".to_owned(),
            None,
            Some("1.0.0".to_owned()),
            home.installed_root("guard")
        )
    );
}
