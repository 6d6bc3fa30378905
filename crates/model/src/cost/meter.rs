//! The cost of a session as it is spent: [`MeteredModel`] wraps each model a
//! session talks to and tells the shared [`CostMeter`] what every request
//! cost; before a request it asks the meter whether the budget allows one
//! more. It never changes a request or a reply.

use super::prices::ModelPrice;
use crate::{AssistantReply, ChatModel, ModelError, ModelEvents, ModelRequest, Usage};
use futures::future::BoxFuture;
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

/// What a session's requests cost so far, and the most it may spend.
#[derive(Debug, Default)]
pub struct CostMeter {
    limit_usd: Option<f64>,
    spent: Mutex<Spent>,
}

#[derive(Debug, Default, Clone, Copy)]
struct Spent {
    usd: f64,
    /// A request was answered by a model without a known price.
    unpriced: bool,
}

impl CostMeter {
    /// A meter that refuses requests once `limit_usd` is spent (`None`: never).
    pub fn new(limit_usd: Option<f64>) -> Arc<CostMeter> {
        Arc::new(CostMeter {
            limit_usd,
            spent: Mutex::default(),
        })
    }

    /// Adds what `usage` cost at `price`; a request without a price makes
    /// the total unknown.
    pub fn record(&self, price: Option<&ModelPrice>, usage: &Usage) {
        if let Ok(mut spent) = self.spent.lock() {
            match price {
                Some(price) => spent.usd += price.cost(usage),
                None => spent.unpriced = true,
            }
        }
    }

    /// The total in USD; `None` when a request's price was unknown.
    pub fn total_usd(&self) -> Option<f64> {
        let spent = self.spent.lock().map(|spent| *spent).unwrap_or_default();
        (!spent.unpriced).then_some(spent.usd)
    }

    /// `Err(BudgetExceeded)` once the priced spending reached the limit.
    pub fn allow_request(&self) -> Result<(), ModelError> {
        let Some(limit) = self.limit_usd else {
            return Ok(());
        };
        let spent = self.spent.lock().map(|spent| spent.usd).unwrap_or(f64::MAX);
        if spent >= limit {
            return Err(ModelError::BudgetExceeded {
                spent_micros: micros(spent),
                limit_micros: micros(limit),
            });
        }
        Ok(())
    }
}

fn micros(usd: f64) -> u64 {
    (usd * 1_000_000.0).round().clamp(0.0, u64::MAX as f64) as u64
}

/// A model whose every request is checked against, and counted by, a meter.
pub struct MeteredModel {
    inner: Arc<dyn ChatModel>,
    price: Option<ModelPrice>,
    meter: Arc<CostMeter>,
}

impl MeteredModel {
    /// Wraps `inner`, whose tokens cost `price` (`None`: unknown).
    pub fn new(
        inner: Arc<dyn ChatModel>,
        price: Option<ModelPrice>,
        meter: Arc<CostMeter>,
    ) -> Self {
        MeteredModel {
            inner,
            price,
            meter,
        }
    }

    async fn metered(
        &self,
        request: impl std::future::Future<Output = Result<AssistantReply, ModelError>>,
    ) -> Result<AssistantReply, ModelError> {
        self.meter.allow_request()?;
        let reply = request.await?;
        let usage = reply.usage.unwrap_or_default();
        self.meter.record(self.price.as_ref(), &usage);
        Ok(reply)
    }
}

impl ChatModel for MeteredModel {
    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
        events: &'a dyn ModelEvents,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
        Box::pin(self.metered(self.inner.complete(request, events, cancel)))
    }

    fn reply_replayed(&self) {
        self.inner.reply_replayed();
    }

    /// The inner model's choice for a subagent, on the same meter and price.
    fn subagent_model(&self) -> Option<Arc<dyn ChatModel>> {
        let inner = self.inner.subagent_model()?;
        Some(Arc::new(MeteredModel::new(
            inner,
            self.price,
            self.meter.clone(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(input: u64, output: u64) -> Usage {
        Usage {
            input_tokens: input,
            output_tokens: output,
            ..Usage::default()
        }
    }

    const PRICE: ModelPrice = ModelPrice {
        input: 1.0,
        output: 2.0,
        cache_read: 0.1,
        cache_write: 1.25,
    };

    #[test]
    fn the_total_adds_every_priced_request() {
        let meter = CostMeter::new(None);
        meter.record(Some(&PRICE), &usage(1_000_000, 0));
        meter.record(Some(&PRICE), &usage(0, 500_000));
        assert_eq!(meter.total_usd(), Some(2.0));
    }

    #[test]
    fn one_unpriced_request_makes_the_total_unknown() {
        let meter = CostMeter::new(None);
        meter.record(Some(&PRICE), &usage(10, 10));
        meter.record(None, &usage(10, 10));
        assert_eq!(meter.total_usd(), None);
    }

    #[test]
    fn a_request_is_refused_once_the_spending_reached_the_limit() {
        let meter = CostMeter::new(Some(1.0));
        let before = meter.allow_request();
        meter.record(Some(&PRICE), &usage(1_000_000, 0));
        assert_eq!(
            (before, meter.allow_request()),
            (
                Ok(()),
                Err(ModelError::BudgetExceeded {
                    spent_micros: 1_000_000,
                    limit_micros: 1_000_000
                })
            )
        );
    }
}
