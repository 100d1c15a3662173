-- Extends a node lease if it is still the one with this epoch: one call per node per period.
-- KEYS[1] the node's lease key. ARGV[1] the epoch, ARGV[2] the ttl in ms. Returns 1 if extended, 0 if ended.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
