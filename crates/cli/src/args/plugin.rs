//! `agenthub plugin`'s flags (plugins and marketplaces); the actions are `plugin_command.rs`.

use clap::{Args, Subcommand};

#[derive(Debug, Args)]
pub struct PluginArgs {
    #[command(subcommand)]
    pub command: PluginCommand,
}

#[derive(Debug, Subcommand)]
pub enum PluginCommand {
    /// Marketplaces: add one from a folder or git URL, or list them.
    Marketplace(MarketplaceArgs),
    /// Install NAME@MARKETPLACE, or a lone plugin from a folder or git URL; it is enabled.
    Install {
        /// `name@marketplace`, a folder, or a git URL.
        plugin: String,
    },
    /// The installed plugins, enabled or not.
    List,
    /// Turn an installed plugin on (user settings' enabledPlugins).
    Enable {
        /// Its name or `name@marketplace`.
        name: String,
    },
    /// Turn an installed plugin off (user settings' enabledPlugins).
    Disable {
        /// Its name or `name@marketplace`.
        name: String,
    },
    /// Uninstall a plugin: its folder goes and it is no longer enabled.
    Remove {
        /// Its name or `name@marketplace`.
        name: String,
    },
}

#[derive(Debug, Args)]
pub struct MarketplaceArgs {
    #[command(subcommand)]
    pub command: MarketplaceCommand,
}

#[derive(Debug, Subcommand)]
pub enum MarketplaceCommand {
    /// Add the marketplace at a folder or git URL (it holds .claude-plugin/marketplace.json).
    Add {
        /// A folder or a git URL.
        source: String,
    },
    /// The added marketplaces.
    List,
}
