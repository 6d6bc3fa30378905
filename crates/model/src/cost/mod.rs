//! What model requests cost (contract §22 "Cost"): a price table of known models
//! and the settings' `modelPrices` ([`prices`]), and a meter shared by every
//! model of a session that adds up each request's cost and refuses the next
//! request once `--max-budget-usd` is spent ([`meter`]).
//!
//! A cost is only ever computed from a known price: a request of a model
//! whose price is unknown makes the total unknown (`null`), never zero.

pub mod meter;
pub mod prices;

pub use meter::{CostMeter, MeteredModel};
pub use prices::{ModelPrice, PriceTable, KNOWN_PRICES, PRICES_CHECKED};
