-- Machine-readable result (loaded after every scenario script): one line that the harness parses.
-- Latencies are in microseconds. errors.status counts responses with status > 399 (wrk's rule);
-- connect/read/write/timeout are socket errors. Any of them makes the slice an error.

function done(summary, latency, requests)
   local e = summary.errors
   local n = summary.requests
   local function pct(p)
      if n == 0 then return 0 end
      return latency:percentile(p)
   end
   local mean, max = 0, 0
   if n > 0 then mean, max = latency.mean, latency.max end
   io.write(string.format(
      "\n@@BENCH_RESULT {\"requests\":%d,\"duration_us\":%d,\"bytes\":%d," ..
      "\"errors\":{\"connect\":%d,\"read\":%d,\"write\":%d,\"status\":%d,\"timeout\":%d}," ..
      "\"latency_us\":{\"p50\":%d,\"p90\":%d,\"p99\":%d,\"max\":%d,\"mean\":%.1f}}\n",
      n, summary.duration, summary.bytes,
      e.connect, e.read, e.write, e.status, e.timeout,
      pct(50), pct(90), pct(99), max, mean))
end
