-- Ends a node lease now, if it is still the one with this epoch (never a newer lease of the same id).
-- KEYS[1] the node's lease key. ARGV[1] the epoch. Returns 1 if ended, 0 if it was not live.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
